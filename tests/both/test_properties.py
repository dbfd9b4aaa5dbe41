"""Property-based tests over random legal matches (hypothesis), on CPython and against
MicroPython: the invariants the issue names, checked after every event."""

import json
import random
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matchgen import pick
from mpy import ROOT, env, micropython

from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.rules import Match, Options
from scorebox_core.games.ttb.snapshot import snapshot
from scorebox_core.match import effective

options = st.builds(
    lambda mode, ca, cb, aa, ab, flips, eq, rounds, games: Options.from_dict(
        {
            "mode": mode,
            "claim_a": ca,
            "claim_b": cb,
            "arrows_a": aa,
            "arrows_b": ab,
            "flips": flips,
            "equal_turns": eq,
            "rounds": rounds,
            "games": games,
        }
    ),
    st.sampled_from([rules.NET, rules.HARD5]),
    st.integers(3, 8),
    st.integers(3, 8),
    st.integers(1, 4),
    st.integers(1, 4),
    st.integers(0, 2),
    st.booleans(),
    st.sampled_from([0, 0, 3, 6]),
    st.sampled_from([1, 3]),
)
choices = st.lists(st.integers(0, 1 << 30), min_size=1, max_size=150)


def play(opts, picks):
    """Apply the picked events one by one, yielding (match, event, state before)."""
    m = Match(opts)
    for c in picks:
        ev = pick(m, c)
        if ev is None:
            return
        before = (list(m.game.owner), list(m.game.flips), m.game.winner, len(m.games))
        m.apply(ev)
        yield m, ev, before


@settings(max_examples=300, deadline=None)
@given(options, choices)
def test_owner_changes_only_by_one_allowed_flip(opts, picks):
    for m, ev, (owner, flips, _, games) in play(opts, picks):
        g = m.game
        if ev in (rules.UNDO, rules.NEW_GAME, rules.NEW_FACE) or len(m.games) != games:
            continue
        for i in range(9):
            if owner[i] is not None and g.owner[i] != owner[i]:
                # TTB-8: only a called shot that hit the X, at this square, within the flip limit
                assert ev == rules.called(i + 1, True)
                assert g.flips[i] == flips[i] + 1 <= opts.flips
                assert g.owner[i] == 1 - owner[i]
            if owner[i] is None and g.owner[i] is not None:
                assert rules.square_of(ev) == i + 1  # TTB-7: only the arrow in that square claims it


@settings(max_examples=300, deadline=None)
@given(options, choices)
def test_a_game_ends_once(opts, picks):
    for m, ev, (_, _, winner, games) in play(opts, picks):
        if ev == rules.UNDO or len(m.games) != games:
            continue
        if winner is not None:
            assert m.game.winner == winner  # TTB-15: an ended game stays ended
            assert m.why_not(rules.hit(1, 1)) == "the game is over"


@settings(max_examples=300, deadline=None)
@given(options, choices)
def test_need_is_consistent_with_balance(opts, picks):
    for m, _, _ in play(opts, picks):
        g = m.game
        for i in range(9):
            if g.owner[i] is not None:
                assert g.need(0, i) is None and g.need(1, i) is None
                continue
            a, b = g.need(0, i), g.need(1, i)
            assert a > 0 and b > 0
            if opts.mode == rules.NET:  # TTB-6
                assert a == opts.claim_a - g.balance(i)
                assert b == opts.claim_b + g.balance(i)
            else:
                assert a == opts.claim_a - g.total[2 * i]
                assert b == opts.claim_b - g.total[2 * i + 1]


@settings(max_examples=200, deadline=None)
@given(options, choices)
def test_undo_then_same_arrow_gives_same_state(opts, picks):
    for m, ev, _ in play(opts, picks):
        if ev >= 256:
            continue
        after = snapshot(m)
        m.apply(rules.UNDO)
        m.apply(ev)
        assert snapshot(m) == after
        assert m.log[-3:] == [ev, rules.UNDO, ev]  # the undo is itself logged


@settings(max_examples=200, deadline=None)
@given(options, choices)
def test_undo_replays_nothing_and_lands_where_a_replay_does(opts, picks):
    # TTB-15, and the cost of undo (#13, #21 item 9): taking back an event folds no event
    # again (a match of many games, or a long one, does not make any undo slower).
    for m, _, _ in play(opts, picks):
        if not m.events:
            continue
        copy = Match.replay(m.log, opts)
        steps = []
        step = copy._step
        copy._step = lambda ev, steps=steps, step=step: steps.append(ev) or step(ev)
        copy.apply(rules.UNDO)
        assert copy.events == effective(copy.log)
        assert snapshot(copy) == snapshot(Match.replay(copy.events, opts))
        assert steps == []


def test_undo_in_a_later_game_replays_nothing():
    # The property above with matches long enough to be in their second or third game.
    rng = random.Random(15)
    opts = Options.from_dict({"games": 5})
    later = 0
    for _ in range(40):
        picks = [rng.randrange(1 << 30) for _ in range(400)]
        for m, _, _ in play(opts, picks):
            if len(m.games) > 1 and m.game.arrows and rng.random() < 0.05:
                later += 1
                copy = Match.replay(m.log, opts)
                steps = []
                step = copy._step
                copy._step = lambda ev, steps=steps, step=step: steps.append(ev) or step(ev)
                copy.apply(rules.UNDO)
                assert steps == []
                assert snapshot(copy) == snapshot(Match.replay(copy.events, opts))
    assert later > 50


@settings(max_examples=200, deadline=None)
@given(options, choices)
def test_replay_of_the_log_gives_the_same_state(opts, picks):
    steps = list(play(opts, picks))
    if steps:
        m = steps[-1][0]
        assert snapshot(Match.replay(m.log, opts)) == snapshot(m)


@pytest.fixture(scope="module")
def mpy_worker():
    p = subprocess.Popen(
        [micropython(), "tests/mpy/rules_replay_worker.py"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env(),
        cwd=ROOT,
    )
    yield p
    p.stdin.close()
    p.wait(timeout=10)


@pytest.mark.micropython
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(options, choices)
def test_cpython_and_micropython_agree(mpy_worker, opts, picks):
    events, states = [], []
    for m, ev, _ in play(opts, picks):
        events.append(ev)
        states.append(snapshot(m))
    mpy_worker.stdin.write(json.dumps({"options": opts.to_dict(), "events": events}) + "\n")
    mpy_worker.stdin.flush()
    line = mpy_worker.stdout.readline()
    assert line, "the MicroPython worker died"
    # Through JSON on both sides: MicroPython's dict order differs, the data must not.
    assert json.loads(line) == json.loads(json.dumps(states))


def test_replay_checks_an_arrow_undone_at_once():
    # A slip (an event undone right away) is skipped by replay's fast path, but must
    # still have been allowed when it was keyed (TTB-9: no called shot at an open square).
    with pytest.raises(rules.Refused, match="event 1 .5:X.: square 5 is open"):
        Match.replay([rules.called(5, True), rules.UNDO])
    m = Match.replay([rules.hit(5, 3), rules.hit(5, 3), rules.UNDO, rules.hit(5, 2)])
    assert m.game.owner[4] == rules.A and m.log[2] == rules.UNDO
