"""Catalog of the messages CANN's compilers print: ATC model conversion, the graph engine (GE), the fusion
engine (FE), the TBE / TE-fusion operator compiler and the operator compile-time checks.

Sections (the entry's ``kind`` says which):

``GE error code``
    Every row of the GE error-code table that ``hicann/ge`` registers with the error manager
    (``base/common/error_registry/error_registry.cc``: E10xxx ATC / GE option checks, E11xxx Caffe,
    E12xxx TensorFlow, E16xxx ONNX parser, E13xxx files and custom passes, E14xxx op compile
    arguments, E19999, W11xxx warnings). The template is the printed form ``<code>: <ErrMessage>``
    (the error manager prints the code, then ``[PID: n] <time>`` in some releases, then the message);
    ``source`` is the table row that holds the ``ErrMessage``.
``compiler error code``
    The compiler classes of CANN's shared error-code table (``hicann/runtime``
    ``src/dfx/error_manager/error_code.json``): FE (E2xxxx), TE fusion (E4xxxx / W4xxxx), the TBE
    op-compile wrapper (E9xxxx), the TBE pass compiler (EBxxxx) and the operators' compile-time
    parameter checks (E5xxxx). ``path`` is the table's URL at the snapshot's commit (the catalog's
    ``repo`` / ``commit`` are hicann/ge's); ``source`` is the row.
``ATC``
    What the ``atc`` command itself prints on stdout (``api/atc/main_impl.cc``).
``GE call site``
    Call sites whose literal arguments give a GE code a meaning of its own, printed as the code's template
    with those arguments filled in (E10001 on ``soc_version`` when an .om built for another chip is loaded).
``asc-devkit cmake``
    The FATAL_ERROR messages of the Ascend C CMake package (``hicann/asc-devkit``
    ``cmake/asc/asc-config.cmake``, installed as ``ASCConfig.cmake``). That repository is read at a
    recorded commit through its URL (no snapshot of it could be fetched here); ``source`` is the line.

Usage: ``python tools/catalog/cann_compilers.py SNAPSHOT_OF_GE SNAPSHOT_OF_RUNTIME``
"""

# ruff: noqa: E501  (URLs and messages are kept on one line)
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import head_commit, read_file, snapshot_arg, write_catalog  # noqa: E402

GE_TABLE = "base/common/error_registry/error_registry.cc"
ATC_MAIN = "api/atc/main_impl.cc"
RT_TABLE = "src/dfx/error_manager/error_code.json"
#: Code prefixes of the shared table that belong to the compilers.
RT_PREFIXES = ("E2", "E4", "W4", "E5", "E9", "EB")
#: stdout lines of atc (main_impl.cc): the start of the source line, the message as printed (the usage
#: command is ``atc`` unless atc is run under another name), and why one of them does not count.
ATC_LINES = [
    ('std::cout << "ATC run failed, Please check the detail log, Try',
     "ATC run failed, Please check the detail log, Try 'atc --help' for more information", None),
    ('std::cout << "ATC run success', "ATC run success, welcome to the next use.",
     "healthy result line of a successful conversion"),
]


def _rows(text: str, code_key: str = '"ErrCode"') -> list[tuple[dict, int, str]]:
    """(row, 1-based line of its ErrMessage, that line stripped) for each row of a JSON error table
    embedded in ``text`` (the whole text, or the raw string of a .cc file)."""
    start = text.index("{", text.index('R"(') + 3) if 'R"(' in text else text.index("{")
    end = text.rindex(")\"") if 'R"(' in text else len(text)
    table = json.loads(text[start:end])["error_info_list"]
    lines = text.splitlines()
    out, cursor = [], 0
    for row in table:
        code = row["ErrCode"]
        # the ErrCode line, then the first ErrMessage line after it
        while not re.search(rf'{code_key}:\s*"{code}"', lines[cursor]):
            cursor += 1
        msg = cursor
        while '"ErrMessage"' not in lines[msg]:
            msg += 1
        out.append((row, msg + 1, lines[msg].strip()))
        cursor = msg
    return out


#: (path in GE, a unique piece of the reporting line's neighbourhood, printed template): call sites of GE codes
#: whose literal arguments make a message of their own.
GE_CALL_SITES = [
    ("base/common/helper/om_file_helper.cc", 'const std::string reason = "Model soc version is not support in this device.";',
     "E10001: Value %s for parameter soc_version is invalid. Reason: Model soc version is not support in this device."),
    ("base/common/helper/om_file_helper.cc", 'const std::string reason = "aclrtCheckArchCompatibility ret: 0x"',
     "E10001: Value %s for parameter soc_version is invalid. Reason: aclrtCheckArchCompatibility ret: 0x%s"),
]

#: asc-devkit at a recorded commit: (path, line, source line, message).
ASC_COMMIT = "cc52145b5ad1c822766e32cc11ec393f8b2e170f"
ASC_LINES = [
    ("cmake/asc/asc-config.cmake", 12,
     'message(FATAL_ERROR "ERROR: ASCEND_HOME_PATH environment variable is not set! source set_env.sh in cann install directory first.")',
     "ERROR: ASCEND_HOME_PATH environment variable is not set! source set_env.sh in cann install directory first."),
    ("cmake/asc/asc-config.cmake", 15, 'message(FATAL_ERROR "ERROR: ASCEND_HOME_PATH directory does not exist!")',
     "ERROR: ASCEND_HOME_PATH directory does not exist!"),
]


def call_site_entries(ge: str) -> list[dict]:
    out = []
    for path, piece, template in GE_CALL_SITES:
        lines = read_file(ge, path).splitlines()
        # the line that holds the reason text (the REPORT_PREDEFINED_ERR_MSG call right after it prints it)
        at = next(i for i, line in enumerate(lines) if piece.split("0x")[0] in line)
        assert any("REPORT_PREDEFINED_ERR_MSG" in x for x in lines[at:at + 3]), (path, piece)
        out.append({"template": template, "path": path, "line": at + 1, "kind": "GE call site",
                    "source": lines[at].strip()})
    return out


def asc_entries() -> list[dict]:
    return [{"template": msg, "path": f"https://github.com/hicann/asc-devkit/blob/{ASC_COMMIT}/{path}", "line": line,
             "kind": "asc-devkit cmake", "source": src} for path, line, src, msg in ASC_LINES]


def ge_entries(ge: str) -> list[dict]:
    out = []
    for row, line, source in _rows(read_file(ge, GE_TABLE)):
        out.append({"template": f"{row['ErrCode']}: {row['ErrMessage']}", "path": GE_TABLE, "line": line,
                    "kind": "GE error code", "source": source})
    return out


def rt_entries(rt: str) -> list[dict]:
    url = f"https://github.com/hicann/runtime/blob/{head_commit(rt)}/{RT_TABLE}"
    out = []
    for row, line, source in _rows(read_file(rt, RT_TABLE)):
        if not row["ErrCode"].startswith(RT_PREFIXES):
            continue
        out.append({"template": f"{row['ErrCode']}: {row['ErrMessage']}", "path": url, "line": line,
                    "kind": "compiler error code", "source": source})
    return out


def atc_entries(ge: str) -> list[dict]:
    out = []
    for i, raw in enumerate(read_file(ge, ATC_MAIN).splitlines(), 1):
        for start, text, excluded in ATC_LINES:
            if raw.strip().startswith(start):
                e = {"template": text, "path": ATC_MAIN, "line": i, "kind": "ATC stdout", "source": raw.strip()}
                if excluded:
                    e["excluded"] = excluded
                out.append(e)
    return out


def main(argv: list[str]) -> None:
    ge = snapshot_arg(argv)
    if len(argv) < 3:
        sys.exit(f"usage: python {argv[0]} SNAPSHOT_OF_GE SNAPSHOT_OF_RUNTIME")
    rt = argv[2]
    entries = atc_entries(ge) + ge_entries(ge) + call_site_entries(ge) + rt_entries(rt) + asc_entries()
    write_catalog(
        "cann-compilers",
        "CANN compiler messages: ATC model conversion, the graph engine's error-code table (E1xxxx / W11xxx) and call "
        "sites, the FE, TE-fusion, TBE op-compile, TBE pass-compiler and operator compile-check codes of the shared "
        "table, and the Ascend C CMake package's errors",
        "hicann/ge", head_commit(ge),
        [ATC_MAIN, GE_TABLE, *sorted({p for p, _, _ in GE_CALL_SITES}), f"hicann/runtime:{RT_TABLE}@{head_commit(rt)}",
         *[f"hicann/asc-devkit:{p}@{ASC_COMMIT}" for p, _, _, _ in ASC_LINES[:1]]],
        "tools/catalog/cann_compilers.py", entries)


if __name__ == "__main__":
    main(sys.argv)
