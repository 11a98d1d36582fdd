"""``triage rules install / uninstall / packs``: share rule packs without reinstalling triage. A pack
(a directory of rule files, or a .tar.gz / .tgz / .tar / .zip of one) is checked like ``rules lint``
and copied into the user's configuration (:func:`triage.knowledge.loader.installed_packs_dir`), where
every command loads it without flags."""

from __future__ import annotations

import shutil
import tarfile
import tempfile
import zipfile
from pathlib import Path

import typer

from triage.cli.common import Arg, _fail, rules_app
from triage.errors import EXIT_INPUT, EXIT_RULES, RulesInvalid

_ARCHIVES = (".tar.gz", ".tgz", ".tar", ".zip")


def _pack_name(path: Path) -> str:
    name = path.name
    for suffix in _ARCHIVES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _unpack(archive: Path, into: Path) -> Path:
    """Extract ``archive`` into ``into`` (no member may leave it); returns the pack's folder (the
    archive's single top folder, or ``into`` itself)."""
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            for m in z.namelist():
                if Path(m).is_absolute() or ".." in Path(m).parts:
                    raise _fail(f"{archive}: member {m} leaves the pack", EXIT_INPUT)
            z.extractall(into)
    else:
        with tarfile.open(archive) as t:
            for m in t.getmembers():  # Pythons before 3.10.12 / 3.11.4 have no extraction filter
                if Path(m.name).is_absolute() or ".." in Path(m.name).parts or m.issym() or m.islnk():
                    raise _fail(f"{archive}: member {m.name} leaves the pack or is a link", EXIT_INPUT)
            t.extractall(into)
    entries = [p for p in into.iterdir() if not p.name.startswith(".")]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else into


@rules_app.command("install")
def install(path: Path = Arg(..., "PACK"),
            name: str = typer.Option(None, "--name", metavar="NAME", help="The pack's name (default: its "
                                     "folder or archive name)."),
            force: bool = typer.Option(False, "--force", help="Replace an installed pack of that name.")) -> None:
    """Install a rule pack (a directory or a .tar.gz / .zip of one) for every command, without flags.

    The pack is checked first, like `triage rules lint`: a pack with an error is refused with each
    problem as file:line: field: message (exit 3). `triage rules list` then shows its rules with the
    pack's name; `triage rules uninstall NAME` removes it.
    """
    from triage.knowledge.loader import installed_packs, installed_packs_dir, load_rules

    if not path.exists():
        raise _fail(f"{path}: no such file or directory", EXIT_INPUT)
    pack = name or _pack_name(path)
    if not pack or pack.startswith(".") or "/" in pack:
        raise _fail(f"--name: `{pack}` is not a pack name", EXIT_INPUT)
    target = installed_packs_dir() / pack
    if target.exists() and not force:
        raise _fail(f"a pack `{pack}` is installed already ({target}); --force replaces it", EXIT_INPUT)
    with tempfile.TemporaryDirectory() as tmp:
        if path.is_dir():
            source = Path(tmp) / pack
            shutil.copytree(path, source)
        elif path.name.endswith(_ARCHIVES):
            source = _unpack(path, Path(tmp) / "unpacked")
        else:
            raise _fail(f"{path}: a pack is a directory or a .tar.gz, .tgz, .tar or .zip of one", EXIT_INPUT)
        try:  # checked together with the packs already installed: two packs may not define one id
            loaded = load_rules([*(p for p in installed_packs() if p.name != pack), source])
        except RulesInvalid as exc:
            for problem in exc.problems:
                print(str(problem).replace(str(source), str(path)), flush=True)
            raise _fail(f"{path}: not installed: {len(exc.problems)} problem(s)", EXIT_RULES) from None
        count = sum(1 for r in loaded.rules if r.file.startswith(str(source)))
        if count == 0:
            raise _fail(f"{path}: no rules in it: not installed", EXIT_INPUT)
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, target)
    print(f"installed pack {pack} ({count} rules) in {target}")


@rules_app.command("uninstall")
def uninstall(name: str = Arg(..., "NAME")) -> None:
    """Remove a pack that `triage rules install` installed."""
    from triage.knowledge.loader import installed_packs, installed_packs_dir

    target = installed_packs_dir() / name
    if not name or name.startswith(".") or "/" in name or "\\" in name or \
            target.resolve().parent != installed_packs_dir().resolve():
        raise _fail(f"`{name}` is not the name of an installed pack (`triage rules packs` lists them)", EXIT_INPUT)
    if not target.is_dir():
        have = ", ".join(p.name for p in installed_packs()) or "none"
        raise _fail(f"no installed pack `{name}` (installed: {have})", EXIT_INPUT)
    shutil.rmtree(target)
    print(f"removed pack {name}")


@rules_app.command("packs")
def packs() -> None:
    """List the packs `triage rules install` installed, with their folders."""
    from triage.knowledge.loader import installed_packs, installed_packs_dir

    found = installed_packs()
    if not found:
        print(f"no pack installed (they go to {installed_packs_dir()})")
    for p in found:
        print(f"{p.name}\t{p}")
