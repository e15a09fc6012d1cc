"""fltheory.plugins in this process: loading by name, file, environment and entry point; one-line
errors naming the module and the cause; records with the SHA-256 of the sources; registrations
from outside code found by the registries (an independent hashlib digest is the reference)."""

import hashlib
import os
import sys
from pathlib import Path

import pytest

from fltheory import plugins
from fltheory.cli.app import plugin_options
from fltheory.config import Strict
from fltheory.errors import FLTheoryError, InputError
from fltheory.plugins import PluginError, load_entry_points, load_plugins, plugin_records
from fltheory.provenance import provenance
from fltheory.registry import DuplicateRegistration, Registry

pytestmark = pytest.mark.usefixtures("clean_plugins")

GROUP = "fltheory.test_things"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _module(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(text)
    return path


def _dist(site: Path, module: str, text: str, group: str = GROUP) -> Path:
    """A hand-made installed distribution (dist-info with METADATA, RECORD, entry points)."""
    _module(site, module, text)
    info = site / f"{module}_dist-1.2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}-dist\nVersion: 1.2.3\n")
    (info / "entry_points.txt").write_text(f"[{group}]\nthing = {module}\n")
    (info / "RECORD").write_text(f"{module}.py,,\n{info.name}/METADATA,,\n")
    return info


def test_a_file_plugin_is_imported_once_and_recorded(tmp_path):
    path = _module(tmp_path, "own_rules_a", "COUNT = [1]\n")
    first = load_plugins([str(path)])
    again = load_plugins([str(path)])
    assert [p.module for p in first] == ["own_rules_a"] and again[0] is first[0]
    assert sys.modules["own_rules_a"].COUNT == [1]
    (record,) = plugin_records()
    assert record["via"] == "load_plugins" and record["distribution"] is None
    assert record["files"] == [{"path": str(path.resolve()), "sha256": _sha(path)}]
    assert plugins.requested() == [str(path.resolve())]


def test_a_module_name_on_the_path_and_a_package_hash_every_source(tmp_path, monkeypatch):
    package = tmp_path / "own_pkg_b"
    package.mkdir()
    (package / "__init__.py").write_text("from own_pkg_b import rule\n")
    (package / "rule.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    (plugin,) = load_plugins(["own_pkg_b"], via="--plugin")
    assert plugin.via == "--plugin"
    assert [Path(p).name for p, _ in plugin.files] == ["__init__.py", "rule.py"]
    assert plugin.files[1][1] == _sha(package / "rule.py")


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ("1 / 0\n", "ZeroDivisionError: division by zero"),
        ("def broken(:\n", "SyntaxError"),
        ("import sys\nsys.exit(3)\n", "SystemExit: 3"),
        ("import no_such_dependency_xyz\n", "No module named 'no_such_dependency_xyz'"),
    ],
    ids=["raises", "syntax", "exits", "missing dependency"],
)
def test_a_module_that_fails_is_one_line_naming_it_and_the_cause(tmp_path, text, cause):
    path = _module(tmp_path, "own_broken_c", text)
    with pytest.raises(PluginError) as caught:
        load_plugins([str(path)], via="--plugin")
    message = str(caught.value)
    assert "\n" not in message and cause in message
    assert message.startswith(f"plug-in '{path.resolve()}' (--plugin) failed to import")
    assert "own_broken_c" not in sys.modules  # a later attempt imports it again
    assert isinstance(caught.value, InputError)


def test_an_unknown_module_says_how_to_make_it_importable():
    with pytest.raises(PluginError, match=r"'own_missing_d' \(FLTHEORY_PLUGINS\) failed to import"):
        load_plugins(["own_missing_d"], via="FLTHEORY_PLUGINS")
    with pytest.raises(PluginError, match=r"on PYTHONPATH, or give the path of its \.py file"):
        load_plugins(["own_missing_d"])


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("", "an empty plug-in name"),
        ("my rules", "neither a module name"),
        ("no/such/file.py", "no such file"),
        ("9lives.py", "not a Python module name"),
    ],
)
def test_malformed_requests_are_refused(spec, words):
    with pytest.raises(PluginError, match=words):
        load_plugins([spec])


def test_a_folder_or_a_fifo_is_not_a_plugin_file(tmp_path):
    (tmp_path / "folder.py").mkdir()
    os.mkfifo(tmp_path / "pipe.py")
    for name in ("folder.py", "pipe.py"):
        with pytest.raises(PluginError, match="not a regular file"):
            load_plugins([str(tmp_path / name)])


def test_a_file_whose_name_is_taken_by_another_module_is_refused(tmp_path):
    path = _module(tmp_path, "json", "X = 1\n")
    with pytest.raises(PluginError, match="a module named 'json' is already imported"):
        load_plugins([str(path)])


def test_the_environment_variable_is_split_on_commas(tmp_path, monkeypatch):
    one = _module(tmp_path, "own_env_e", "X = 1\n")
    two = _module(tmp_path, "own_env_f", "X = 2\n")
    monkeypatch.setenv(plugins.ENV, f" {one} ,,{two},")
    assert [p.module for p in plugins.load_environment()] == ["own_env_e", "own_env_f"]
    assert {r["via"] for r in plugin_records()} == {"FLTHEORY_PLUGINS"}


def test_a_registry_loads_the_environment_and_its_entry_points(tmp_path, monkeypatch):
    text = (
        "from fltheory.config import Strict\n"
        "from {registry} import THINGS\n"
        "@THINGS.register('{name}', params=Strict)\n"
        "def build(params):\n"
        "    '''A thing.'''\n"
        "    return '{name}'\n"
    )
    _module(
        tmp_path,
        "own_registry_g",
        f"from fltheory.registry import Registry\nTHINGS = Registry('thing', group='{GROUP}')\n",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import own_registry_g  # noqa: F401

    env_module = _module(
        tmp_path, "own_env_thing_h", text.format(registry="own_registry_g", name="from_env")
    )
    _dist(
        tmp_path, "own_ep_thing_i", text.format(registry="own_registry_g", name="from_entry_point")
    )
    monkeypatch.setenv(plugins.ENV, str(env_module))
    things = sys.modules["own_registry_g"].THINGS
    assert things.names() == ["from_entry_point", "from_env"]
    assert things.build("from_env", {}) == "from_env"
    assert not things.get("from_env").builtin
    records = {r["module"]: r for r in plugin_records()}
    assert records["own_ep_thing_i"]["via"] == f"entry point {GROUP}"
    assert records["own_ep_thing_i"]["distribution"] == "own_ep_thing_i-dist"
    assert records["own_ep_thing_i"]["version"] == "1.2.3"
    assert records["own_ep_thing_i"]["registered"] == ["thing 'from_entry_point'"]
    assert records["own_env_thing_h"]["registered"] == ["thing 'from_env'"]


def test_a_broken_entry_point_is_one_line_and_is_reported_again(tmp_path, monkeypatch):
    _dist(tmp_path, "own_ep_broken_j", "raise RuntimeError('no licence')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for _ in range(2):
        with pytest.raises(PluginError) as caught:
            load_entry_points(GROUP)
        assert str(caught.value) == (
            f"plug-in 'own_ep_broken_j' (entry point 'thing' in group {GROUP} of "
            "own_ep_broken_j-dist 1.2.3) failed to import: RuntimeError: no licence"
        )


def test_code_registering_from_python_is_in_the_provenance():
    things: Registry = Registry("thing", group=GROUP)

    @things.register("mine", params=Strict)
    def build(params):
        """Mine."""

    record = next(r for r in provenance()["plugins"] if r["module"] == __name__)
    assert record["via"] == "registered from Python" and record["registered"] == ["thing 'mine'"]
    assert record["files"] == [
        {"path": str(Path(__file__).resolve()), "sha256": _sha(Path(__file__))}
    ]


def test_a_registry_without_a_group_records_nothing():
    shapes: Registry = Registry("shape")
    shapes.register("square", params=Strict)(lambda p: 1)
    assert plugin_records() == []


def test_a_name_registered_twice_names_both_modules():
    things: Registry = Registry("thing")
    things.register("x", params=Strict)(lambda p: 1)
    with pytest.raises(
        DuplicateRegistration,
        match=rf"thing 'x' is registered twice \(by {__name__} and by {__name__}\)",
    ) as caught:
        things.register("x", params=Strict)(lambda p: 2)
    assert isinstance(caught.value, FLTheoryError) and isinstance(caught.value, RuntimeError)


def test_a_plugin_clashing_with_a_builtin_name_is_refused(tmp_path):
    path = _module(
        tmp_path,
        "own_clash_k",
        "from fltheory.sim.registries import ALGORITHMS, NoParams\n"
        "ALGORITHMS.names()\n"
        "ALGORITHMS.register('fedavg', params=NoParams)(lambda p, c: None)\n",
    )
    with pytest.raises(
        PluginError,
        match=r"algorithm 'fedavg' is registered twice "
        r"\(by fltheory\.sim\.algorithms\.fedavg and by own_clash_k\)",
    ):
        load_plugins([str(path)])


def test_workers_run_after_loading_the_same_plugins(tmp_path):
    path = _module(tmp_path, "own_worker_l", "VALUE = 41\n")
    assert (
        plugins.call_with_plugins([str(path)], lambda x: sys.modules["own_worker_l"].VALUE + x, 1)
        == 42
    )
    assert plugin_records()[0]["via"] == "sweep worker"


@pytest.mark.parametrize(
    ("argv", "rest", "modules"),
    [
        (["check", "--plugin", "a", "--plugin=b.c", "--json"], ["check", "--json"], ["a", "b.c"]),
        (["--plugin", "x.py", "simulate"], ["simulate"], ["x.py"]),
        (["chain", "--client", "0.3:0.6"], ["chain", "--client", "0.3:0.6"], []),
    ],
)
def test_plugin_options_are_taken_anywhere(argv, rest, modules):
    assert plugin_options(argv) == (rest, modules)


@pytest.mark.parametrize("argv", [["check", "--plugin"], ["--plugin", "--json", "check"]])
def test_a_plugin_option_without_a_module_is_refused(argv):
    with pytest.raises(FLTheoryError, match=r"--plugin needs a module name or a \.py file"):
        plugin_options(argv)
