"""parse_table: the vectorised path and the careful path agree, and every refusal names the line.

The expected values come from Python's own ``float`` applied token by token (an independent
parser), and the refusals from the rules of :func:`fltheory.config.numbers.parse_float`.
"""

import numpy as np
import pytest

from fltheory.config.numbers import fast_table, parse_table
from fltheory.errors import InputError
from fltheory.rng import generator


def _reference(text: str) -> list[list[float]]:
    return [[float(x) for x in line.split(",")] for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("scale", [1e-300, 1e-5, 1.0, 1e5, 1e300])
def test_fast_path_matches_python_float_exactly(scale: float) -> None:
    values = generator(1, f"tables/{scale}").normal(size=(200, 3)) * scale
    text = "\n".join(",".join(repr(float(v)) for v in row) for row in values) + "\n"
    fast = fast_table(text)
    assert fast is not None
    assert fast.tolist() == _reference(text)
    assert parse_table(text, "t")[0].tolist() == _reference(text)


@pytest.mark.parametrize(
    "text",
    [
        "1,2\n3,4,5\n",  # a longer row
        "1,2\n3\n",  # a shorter row
        "1,2,3\n4\n5,6\n",  # unequal rows, equal total
        "1,2\n ,4\n",  # a blank field (numpy would read -1)
        "1,2\n,4\n",
        "1,2\n3,nan\n",
        "1,2\n3,1e400\n",
        "1,2\n3,1e-99999999\n",
        "1,2\n3,0x10\n",
        "1,2\n3,4 # note\n",
        "1,-1\n",  # -1 takes the careful path (and is accepted there)
    ],
)
def test_anything_unusual_takes_the_careful_path(text: str) -> None:
    assert fast_table(text) is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1,2\n3,4,5\n", "t line 2: 3 entries, expected 2"),
        ("1,2\n\n3,inf\n", "t line 3: 'inf' is not a number"),
        ("1,2\n3,1e400\n", "t line 2: '1e400' overflows a double"),
        ("1,2\n3,1e-99999999\n", "t line 2: '1e-99999999' has a decimal exponent beyond ±400"),
        ("1,2\n ,4\n", "t line 2: '' is not a number"),
        ("# only a comment\n\n", "t: no numbers in the file"),
        ("1," + "9" * 5000 + "\n", "t line 1: a number of 5000 characters is too long"),
    ],
)
def test_refusals_name_the_line(text: str, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        parse_table(text, "t")
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_careful_path_skips_comments_and_blank_lines_and_keeps_line_numbers() -> None:
    values, lines = parse_table("# header\n1,-1\n\n1/4, 2e-3 # tail\n", "t", first_line=1)
    np.testing.assert_array_equal(values, [[1.0, -1.0], [0.25, 0.002]])
    assert lines.tolist() == [2, 4]
