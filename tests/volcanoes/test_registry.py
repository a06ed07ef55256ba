"""The registry (bots/volcanoes/registry.py): every bot's parameters declared, options typed once
(`parse`), written back canonically, and checked again when a bot is made from typed options."""

import pytest

from bots.volcanoes import registry


def test_every_record_is_its_own_bot_and_the_ladder_has_one_bot_a_rung():
    assert all(name == record.name for name, record in registry.BOTS.items())
    rungs = [record.ladder for record in registry.BOTS.values() if record.ladder is not None]
    assert sorted(rungs) == list(range(len(rungs))) == [registry.BOTS[name].ladder for name in registry.LADDER]
    assert all(registry.BOTS[record.stand_in].pure for record in registry.BOTS.values())
    for name in registry.BOTS:
        for parameter in registry.parameters(name):
            assert parameter.low <= parameter.default <= parameter.high, (name, parameter)
            assert isinstance(parameter.default, parameter.type), (name, parameter)


def test_options_are_typed_once_and_written_back_canonically():
    spec = registry.parse("mcts:rave_k=2000,expand=3,c=1,ms=300")
    assert spec.options == {"rave_k": 2000.0, "expand": 3, "c": 1.0} and spec.turn_ms == 300.0
    assert type(spec.options["expand"]) is int and type(spec.options["c"]) is float
    assert str(spec) == "mcts:c=1.0,expand=3,ms=300.0,rave_k=2000.0"
    assert registry.parse(str(spec)) == spec
    assert str(registry.parse("uct")) == "uct" and registry.parse("uct").turn_ms is None


# what a user writes -> what the one-line error says
BAD = {
    "nobody": "no bot named 'nobody'",
    "mcts:depth=3": "mcts has no option 'depth'",
    "mcts:c=11": "c=11 is out of range",
    "mcts:expand=1.5": "expand='1.5' is not an integer",
    "mcts:c=0.2,c=0.3": "option 'c' is given twice",
    "uct:ms=0": "ms=0 is out of range",
    "uct:c": "is not NAME=VALUE",
}


@pytest.mark.parametrize("text", BAD)
def test_a_bad_option_is_one_line_saying_what_is_wrong(text):
    with pytest.raises(ValueError, match=BAD[text]):
        registry.parse(text)


def test_make_checks_typed_options_and_passes_the_seed():
    bot = registry.make("pure-mcts", {"iterations": 40, "exploration": 0}, seed=3)
    assert bot.fixed_iterations == 40 and bot.exploration == 0.0
    with pytest.raises(ValueError, match="iterations=2.5 is not an integer"):
        registry.make("pure-mcts", {"iterations": 2.5})
    with pytest.raises(ValueError, match="pure-random has no option 'c'"):
        registry.make("pure-random", {"c": 1.0})
