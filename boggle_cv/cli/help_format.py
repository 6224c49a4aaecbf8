"""--help as a terminal of any width reads it (as ripgrep's and gh's): the usage line
names each argument as it is written (`PHOTO...`, `[GAME]`), then each option on its
own line with its value's name (`-p, --player NAME=FILE`) and its description
wrapped under it, indented, across the help's whole width (click's formatter: at
most 78 columns); `-h` is `--help`; every command lists `--debug`, which the entry
point takes anywhere on the command line (cli.main).
"""
from __future__ import annotations

from typing import Any

from typer.core import TyperCommand, TyperGroup

#: Both names of the help option, on every command.
HELP_OPTIONS = ["-h", "--help"]
#: The --debug option, read by cli.main before the command line is parsed.
DEBUG_ROW = ("--debug", "On an error, print its traceback too (the exit code and the error's "
                        "line stay as without it). Also BOGGLE_CV_DEBUG=1.")
#: Columns a description is indented under its option.
INDENT = 6


def write_rows(formatter: Any, heading: str, rows: list[tuple[str, str]]) -> None:
    """A section of `formatter` (a click HelpFormatter): each term on its own line,
    its text wrapped under it, INDENT columns in."""
    if not rows:
        return
    from textwrap import wrap
    with formatter.section(heading):
        indent = formatter.current_indent
        width = max(formatter.width - indent - INDENT, 30)
        for term, text in rows:
            formatter.write(f"{'':>{indent}}{term}\n")
            for line in wrap(text, width) if text else []:
                formatter.write(f"{'':>{indent + INDENT}}{line}\n")


def _rows(command: Any, ctx: Any) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(arguments, options) as (term, text) rows; an argument's term is its metavar."""
    args: list[tuple[str, str]] = []
    opts: list[tuple[str, str]] = []
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            args.append((_argument_name(param), getattr(param, "help", None) or ""))
            continue
        record = param.get_help_record(ctx)
        if record is not None:
            opts.append(record)
    return args, opts


def _argument_name(param: Any) -> str:
    """PHOTO..., [GAME]: the metavar (else the name in capitals), ... when repeated,
    in brackets when optional."""
    name = str(param.metavar or (param.name or "").upper())
    if param.nargs != 1:
        name += "..."
    return name if param.required else f"[{name}]"


class HelpCommand(TyperCommand):
    """A command whose --help is written as this module says."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [_argument_name(p) for p in self.get_params(ctx) if p.param_type_name == "argument"]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        args, opts = _rows(self, ctx)
        write_rows(formatter, "Arguments", args)
        write_rows(formatter, "Options", [*opts, DEBUG_ROW])


def command_rows(group: Any, ctx: Any) -> list[tuple[str, str]]:
    """(name, the first paragraph of its help: one sentence) of each command, in order."""
    rows = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is not None and not command.hidden:
            rows.append((name, (command.help or "").split("\n\n")[0]))
    return rows


def write_commands(formatter: Any, rows: list[tuple[str, str]]) -> None:
    """The commands, each name followed by its sentence, wrapped under itself."""
    from textwrap import wrap
    with formatter.section("Commands"):
        indent = formatter.current_indent
        name_width = max(len(name) for name, _ in rows) + 2
        width = max(formatter.width - indent - name_width, 30)
        for name, text in rows:
            lines = wrap(text, width) or [""]
            formatter.write(f"{'':>{indent}}{name:<{name_width}}{lines[0]}\n")
            for line in lines[1:]:
                formatter.write(f"{'':>{indent + name_width}}{line}\n")


def command_list(group: Any, ctx: Any) -> str:
    """What `boggle-cv` alone prints (as gh does): what it is, the usage, each
    command's sentence, the example and where the options are."""
    formatter = ctx.make_formatter()
    doc = (group.help or "").split("\n\n")
    formatter.write(f"{doc[0]}\n\nUsage: boggle-cv COMMAND [OPTIONS] [ARGUMENTS]\n")
    write_commands(formatter, command_rows(group, ctx))
    formatter.write("\n" + "\n\n".join(doc[1:]) + "\n")
    formatter.write("\n'boggle-cv COMMAND -h' shows a command's options and an example.\n")
    return str(formatter.getvalue())


class HelpGroup(TyperGroup):
    """The program's --help: its options as a command's, then the commands. Alone
    (no command, no option) it prints the list of commands and exits 0; a command it
    does not have is a usage error with a "did you mean" when one is close."""

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _, opts = _rows(self, ctx)
        write_rows(formatter, "Options", [*opts, DEBUG_ROW])
        write_commands(formatter, command_rows(self, ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> Any:
        if not args and not ctx.resilient_parsing:
            import typer
            typer.echo(command_list(self, ctx), nl=False)
            raise typer.Exit(0)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            from ..errors import UsageError
            from .usage import no_such_command
            raise UsageError(no_such_command(args[0], list(self.commands)))
        return super().resolve_command(ctx, args)
