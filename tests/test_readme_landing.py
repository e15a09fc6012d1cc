"""The README is a landing page: the quick start is the two commands, the layout names every
package of fltheory/, and every page it (or a docs page) links to exists."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_quick_start_is_two_commands():
    (block,) = re.findall(r"```bash\n(.*?)```", _section("Quick start"), re.S)
    commands = [line.split("#", 1)[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make demo", "make test"]


def test_the_layout_names_every_package():
    layout = _section("Layout")
    packages = sorted(p.parent.name for p in (ROOT / "fltheory").glob("*/__init__.py"))
    assert len(packages) >= 15
    missing = [p for p in packages if not re.search(rf"^\s+{p}\s", layout, re.M)]
    assert missing == [], f"the README's layout omits {missing}"


PAGES = ["README.md", *(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES)
def test_every_relative_link_resolves(page):
    path = ROOT / page
    links = re.findall(r"\]\(([^)\s]+)\)", path.read_text())
    local = [link.split("#", 1)[0] for link in links if not re.match(r"[a-z]+:", link)]
    broken = [link for link in local if link and not (path.parent / link).exists()]
    assert broken == [], f"{page} links to missing files: {broken}"
