"""The command line in one table (issue 23 item 4, as mpremote's _COMMANDS): every command
`scorebox` takes is a row of cli.COMMANDS, each row registers its one command whole (with
the options the CLI adds as parent parsers), and no parser is changed after that."""

import argparse

from scorebox import cli


def test_the_parser_takes_the_table_and_nothing_else():
    sub = next(a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == list(cli.COMMANDS)  # in the table's order (demo: a checkout's)


def test_each_row_registers_its_command_whole():
    for name, (_, _, parents, run) in cli.COMMANDS.items():
        register = cli.register(name)  # the row's module imported now
        p = argparse.ArgumentParser()
        sub = p.add_subparsers(dest="command")
        if parents:
            register(sub, parents=[make() for make in parents])
        else:
            register(sub)
        assert list(sub.choices) == [name], name  # one command a row
        got = sub.choices[name]
        options = {o for a in got._actions for o in a.option_strings}
        for make in parents:  # the CLI's options are in it from the start
            assert {o for a in make()._actions for o in a.option_strings} <= options, name
        assert run is not None or got.get_default("run") is not None, name  # something runs it


def test_a_wrapped_command_runs_the_cli_wrapper(tmp_path, capsys):
    """sync and doctor take --sim from the CLI; the table's run, not the module's, runs them."""
    assert cli.COMMANDS["sync"][3] is cli.cmd_sync and cli.COMMANDS["doctor"][3] is cli.cmd_doctor
    args = cli.parser().parse_args(["sync", "--sim", str(tmp_path / "box.flash"), "--db", str(tmp_path / "s")])
    assert args.sim == str(tmp_path / "box.flash") and args.command == "sync"
