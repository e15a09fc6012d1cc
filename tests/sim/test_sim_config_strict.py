"""Simulation configs on the strict config layer: unknown keys, wrong types, non-finite numbers,
unknown kinds and names are one line naming the file, the table and the key (with a suggestion),
and the CLI exits 2 on them."""

import pytest

from fltheory.cli.app import main
from fltheory.errors import InputError
from fltheory.sim.config import load_config

BASE = """\
seed = 1
seeds = 2
device = "cpu"
dtype = "float64"
[run]
rounds = 3
lr = 0.2
[problem]
kind = "fedpbc_quadratic"
n_clients = 4
dim = 2
[availability]
kind = "bernoulli"
p = [0.3, 0.5, 0.7, 0.9]
[[algorithms]]
name = "fedavg"
[[algorithms]]
name = "f3ast"
k = 2
"""

DIGITS = 'kind = "digits"\nn_clients = 4\nmodel = "cnn"\ncnn_kernel = 3'


def _load(tmp_path, text):
    path = tmp_path / "c.toml"
    path.write_text(text)
    return path, load_config(path)


def _error(tmp_path, text) -> tuple[str, str]:
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_config(path)
    message = str(info.value)
    assert "\n" not in message
    return message, str(path)


def _sub(old, new):
    def edit(text):
        assert old in text
        return text.replace(old, new, 1)

    return edit


UNKNOWN_KEYS = [
    (
        _sub("seed = 1", "seeed = 1"),
        "unknown key 'seeed' in the top level of {}; did you mean 'seed'?",
    ),
    (
        _sub("rounds = 3", "roundz = 3"),
        "unknown key 'roundz' in [run] of {}; did you mean 'rounds'?",
    ),
    (_sub("dim = 2", "dimm = 2"), "unknown key 'dimm' in [problem] of {}; did you mean 'dim'?"),
    (_sub("p = [", "pp = ["), "unknown key 'pp' in [availability] of {}; did you mean 'p'?"),
    (_sub("k = 2", "kk = 2"), "unknown key 'kk' in [algorithms.1] of {}; did you mean 'k'?"),
    (
        _sub('name = "fedavg"', 'name = "fedavg"\nlable = "x"'),
        "unknown key 'lable' in [algorithms.0] of {}; did you mean 'label'?",
    ),
    (
        _sub('name = "fedavg"', 'name = "fedavg"\nserver_rl = 1.0'),
        "unknown key 'server_rl' in [algorithms.0] of {}; did you mean 'server_lr'?",
    ),
    (_sub("lr = 0.2", 'label = "x"'), "unknown key 'label' in [run] of {}"),
    (
        _sub('kind = "fedpbc_quadratic"\nn_clients = 4\ndim = 2', DIGITS + "\ncnn_kernal = 3"),
        "unknown key 'cnn_kernal' in [problem] of {}; did you mean 'cnn_kernel'?",
    ),
]

WRONG_VALUES = [
    (
        _sub("lr = 0.2", 'lr = "0.2"'),
        "key 'lr' in [run] of {}: must be a number, got '0.2' (str)",
    ),
    (
        _sub("rounds = 3", "rounds = true"),
        "key 'rounds' in [run] of {}: must be an integer, got true (bool)",
    ),
    (
        _sub("seeds = 2", "seeds = 2.0"),
        "key 'seeds' in the top level of {}: must be an integer, got 2.0 (float)",
    ),
    (
        _sub("n_clients = 4", "n_clients = 4.0"),
        "key 'n_clients' in [problem] of {}: must be an integer, got 4.0 (float)",
    ),
    (
        _sub("k = 2", "k = 2.5"),
        "key 'k' in [algorithms.1] of {}: must be an integer, got 2.5 (float)",
    ),
    (
        _sub("lr = 0.2", "lr = inf"),
        "key 'lr' in [run] of {}: must be a finite number, got inf (float)",
    ),
    (
        _sub("p = [0.3, 0.5", "p = [0.3, nan"),
        "key 'p' in [availability] of {}: entry [1] must be a finite number, got nan (float)",
    ),
    (
        _sub('name = "fedavg"', 'name = "fedavg"\nmomentum = nan'),
        "key 'momentum' in [algorithms.0] of {}: must be a finite number, got nan (float)",
    ),
    (
        _sub("p = [0.3, 0.5, 0.7, 0.9]", 'p = "high"'),
        "key 'p' in [availability] of {}: must be a number or a list of numbers, got 'high' (str)",
    ),
    (
        _sub("p = [0.3, 0.5, 0.7, 0.9]", 'p = [0.3, "a"]'),
        "key 'p' in [availability] of {}: entry [1] must be a number, got 'a' (str)",
    ),
    (
        _sub("rounds = 3", "rounds = 0"),
        "key 'rounds' in [run] of {}: must be >= 1, got 0 (int)",
    ),
    (
        _sub("lr = 0.2", "lr = -0.2"),
        "key 'lr' in [run] of {}: must be > 0.0, got -0.2 (float)",
    ),
    (
        _sub('name = "fedavg"', 'name = "fedavg"\nrule = "median"'),
        "key 'rule' in [algorithms.0] of {}: must be 'mean' or 'fixed', got 'median' (str)",
    ),
    (
        _sub('device = "cpu"', 'device = "tpu"'),
        "key 'device' in the top level of {}: must be 'auto', 'cpu' or 'cuda', got 'tpu'",
    ),
    (_sub("[run]\nrounds = 3", "[run]"), "missing key 'rounds' in [run] of {}"),
    (_sub('kind = "bernoulli"\n', ""), "missing key 'kind' in [availability] of {}"),
    (_sub('name = "fedavg"', 'label = "a"'), "missing key 'name' in [algorithms.0] of {}"),
    (
        _sub('kind = "bernoulli"', "kind = 3"),
        "key 'kind' in [availability] of {}: expected a string, got 3",
    ),
    (
        lambda t: t.replace("[[algorithms]]", "[[algorithmz]]"),
        "unknown key 'algorithmz' in the top level of {}; did you mean 'algorithms'?",
    ),
    (
        lambda t: t + "[[algorithms]]\nname = 3.5\n",
        "key 'name' in [algorithms.2] of {}: expected a string, got 3.5",
    ),
]

UNKNOWN_NAMES = [
    (
        _sub('kind = "fedpbc_quadratic"', 'kind = "quadratik"'),
        "unknown problem kind 'quadratik' in [problem] of {}; did you mean 'quadratic'?",
    ),
    (
        _sub('kind = "bernoulli"', 'kind = "bernouli"'),
        "unknown availability kind 'bernouli' in [availability] of {}; did you mean 'bernoulli'?",
    ),
    (
        _sub('name = "fedavg"', 'name = "fedavgg"'),
        "unknown algorithm 'fedavgg' in [algorithms.0] of {}; did you mean 'fedavg'?",
    ),
    (
        _sub('kind = "fedpbc_quadratic"\nn_clients = 4\ndim = 2', DIGITS.replace("cnn", "cnnn", 1)),
        "unknown model 'cnnn' in [problem] of {}; did you mean 'cnn'?",
    ),
]

BUILD_ERRORS = [
    (_sub("k = 2", "k = 5"), "[algorithms.1] of {}: F3AST needs 1 <= k <= 4, got k=5"),
    (
        _sub("p = [0.3, 0.5, 0.7, 0.9]", "p = [0.3, 0.5, 0.7]"),
        "[availability] of {}: 'p' must be a number or a list of 4 numbers, got 3",
    ),
    (
        _sub("p = [", "p_groups = [0.5]\np = ["),
        "[availability] of {}: give exactly one of 'p', 'p_groups' and 'groups'",
    ),
    (
        _sub("p = [0.3, 0.5, 0.7, 0.9]", "p = 1.5"),
        "[availability] of {}: p must hold probabilities in [0, 1]",
    ),
    (
        lambda t: t + '[[algorithms]]\nname = "fedavg"\n',
        "the labels in [[algorithms]] of {} must be distinct",
    ),
    (
        _sub("dim = 2", 'dim = 2\nalpha = "samples"'),
        "key 'alpha' in [problem] of {}: must be 'uniform' or a list of numbers, got 'samples'",
    ),
]


@pytest.mark.parametrize(
    ("edit", "expected"), UNKNOWN_KEYS + WRONG_VALUES + UNKNOWN_NAMES + BUILD_ERRORS
)
def test_errors_name_file_table_and_key(tmp_path, edit, expected):
    message, path = _error(tmp_path, edit(BASE))
    assert message.startswith(expected.format(path)), message


def test_unknown_names_list_the_choices(tmp_path):
    message, _ = _error(tmp_path, BASE.replace('name = "fedavg"', 'name = "fedavgg"'))
    assert message.endswith(")") and "choose from: adafed, ca_fed," in message


@pytest.mark.parametrize(("edit", "expected"), [UNKNOWN_KEYS[0], WRONG_VALUES[1], UNKNOWN_NAMES[2]])
def test_cli_prints_one_line_and_exits_2(tmp_path, capsys, edit, expected):
    path = tmp_path / "c.toml"
    path.write_text(edit(BASE))
    assert main(["simulate", "--config", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"fltheory: error: {expected.format(path)}")
    assert captured.err.count("\n") == 1


def test_run_gives_defaults_and_entries_override_them(tmp_path):
    text = BASE.replace('name = "fedavg"', 'name = "fedavg"\nlr = 0.5\nlabel = "FedAvg"')
    text = text.replace("lr = 0.2", "lr = 0.2\nserver_lr = 2.0\nmomentum = 0.5\ndiameter = 0")
    _, cfg = _load(tmp_path, text)
    fedavg, f3ast = cfg.specs
    assert (fedavg.label, fedavg.schedule.lr, fedavg.server.lr) == ("FedAvg", 0.5, 2.0)
    assert (f3ast.label, f3ast.schedule.lr, f3ast.server.momentum) == ("f3ast", 0.2, 0.5)
    assert fedavg.server.diameter is None and f3ast.algorithm.beta == pytest.approx(1 / 3)


def test_data_problem_takes_its_model_fields_from_the_same_table(tmp_path):
    text = BASE.replace('kind = "fedpbc_quadratic"\nn_clients = 4\ndim = 2', DIGITS)
    _, cfg = _load(tmp_path, text.replace('[[algorithms]]\nname = "f3ast"\nk = 2\n', ""))
    model = cfg.problem.model
    assert type(model).__name__ == "SmallCNN" and model.n_classes == 10


def test_config_choices_match_the_engine():
    """The schedules and estimators a config may name are those the engine implements."""
    from typing import get_args

    from fltheory.sim.config.tables import AlgorithmDefaults
    from fltheory.sim.settings import DECAYS, ESTIMATORS

    fields = AlgorithmDefaults.model_fields
    assert set(get_args(fields["lr_schedule"].annotation)) == set(DECAYS)
    assert set(get_args(fields["estimator"].annotation)) == set(ESTIMATORS)
