"""Extract MindIE's user-facing error texts from a snapshot of Ascend/MindIE-LLM.

Usage: ``python tools/catalog/mindie.py SNAPSHOT_OF_MINDIE_LLM``

What is swept (the catalog's ``paths``):

- C++ under ``src/`` (server, config manager, LLM manager, engine, executor, utils; not the
  kernels nor tests): every ``ULOG_ERROR`` / ``ULOG_CRITICAL`` (MindIE Server; the MIE04 code the
  call builds with ``Generate*ErrCode`` is worked out and kept in ``kind``), every
  ``MINDIE_LLM_LOG_ERROR`` / ``MINDIE_LLM_LOG_FATAL`` (with its MIE05 code when one is passed), and
  the ``std::cout`` error texts of the config checks (``src/config_manager``, ``src/utils``,
  ``src/server``: MindIE prints its config.json checks on the console).
- C++ of the ATB model framework (``examples/atb_models/atb_framework``): the
  ``ATB_SPEED_LOG_ERROR`` calls that carry an MIE05 code, and the ``Execute fail`` / ``Setup fail``
  runtime errors of ``core/base/model.cpp``.
- Python of ``mindie_llm/`` (server, connector, model wrapper, text generator, runtime, tokenizer,
  utils) and of the atb_llm model runner (``examples/atb_models/atb_llm/runner``,
  ``atb_llm/utils``, ``atb_llm/models/base``): ``raise X("...")`` and ``logger.error`` /
  ``logger.critical`` / ``print_log(..., logger.error, ...)``. Per-model files under
  ``atb_llm/models/<model>/`` are not swept (hundreds of model-internal shape checks).
- The FAQ page ``docs/zh/faq/faq.md`` and the install FAQ pages: the log lines they show.

Messages are keyed by (path, template); a format string's variable parts become ``{}`` (C++
stream pieces and f-string fields) or stay ``%s`` (printf / %-format).

Entries get a default ``excluded`` reason from a few conservative patterns (internal null checks,
tensor plumbing, messages that only tests can trigger); hand annotations in the catalog win. Then
``tools/catalog/mindie_internal_rules.py`` turns the internal checks among them into ``rule:`` entries
(per-component internal-check rules in ``rules/mindie_internal.yaml``); only the lines that never reach a
user (tests, FAQ prose) and texts too generic for a pattern stay excluded.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import head_commit, list_files, read_file, snapshot_arg, write_catalog  # noqa: E402

CPP_DIRS = ["src/"]
CPP_SKIP = ("src/kernels/", "tests/")
ATB_DIR = "examples/atb_models/atb_framework/"
PY_DIRS = ["mindie_llm/", "examples/atb_models/atb_llm/runner/", "examples/atb_models/atb_llm/utils/",
           "examples/atb_models/atb_llm/models/base/"]
FAQ_PAGES = ["docs/zh/faq/faq.md"]
FAQ_DIR = "docs/zh/user_guide/install/faq_and_appendixes/"

# ------------------------------------------------------------------ MIE04 codes of MindIE Server
SUBMODULE_CODE = {"Daemon": "01", "Endpoint": "02", "Tokenizer": "04", "InferInstance": "06",
                  "HealthChecker": "07"}


def server_code_tables(repo: str) -> dict[str, str]:
    """Constant name -> value of ``src/utils/log/logger_def.h`` (levels, features, error types)."""
    text = read_file(repo, "src/utils/log/logger_def.h")
    return dict(re.findall(r'const std::string (\w+) = "([^"]*)";', text))


def server_code(call: str, consts: dict[str, str]) -> str | None:
    m = re.search(r"Generate(\w+?)ErrCode\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)", call)
    if not m or m.group(1) not in SUBMODULE_CODE:
        return None
    level, feat, err = (consts.get(g) for g in m.group(2, 3, 4))
    if None in (level, feat, err):
        return None
    return f"MIE04{level}{SUBMODULE_CODE[m.group(1)]}{feat}{err}"


LLM_CODES: dict[str, str] = {}


def llm_code_table(repo: str) -> dict[str, str]:
    text = read_file(repo, "mindie_llm/utils/log/error_code.py")
    table = dict(re.findall(r'^\s+(\w+) = "(MIE\w+)"', text, re.M))
    text = read_file(repo, "src/include/utils/log.h")
    table.update(re.findall(r'\{"(\w+)", "(MIE\w+)"\}', text))
    return table


# ------------------------------------------------------------------ C++ parsing
def _strip_comments(text: str) -> str:
    """Blank out // and /* */ comments, keeping string literals and line numbers."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _balanced(text: str, start: int) -> int:
    """Index just past the parenthesis closing the one at ``start``."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _split_args(inner: str) -> list[str]:
    args, depth, cur, i, n = [], 0, [], 0, len(inner)
    while i < n:
        c = inner[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and inner[j] != c:
                j += 2 if inner[j] == "\\" else 1
            cur.append(inner[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    args.append("".join(cur))
    return [a.strip() for a in args]


_CPP_STR = re.compile(r'"((?:[^"\\]|\\.)*)"')


def cpp_stream_template(expr: str) -> str:
    """``"a " << x << " b"`` -> ``a {} b``; adjacent literals are joined."""
    parts = []
    for piece in re.split(r"<<", expr):
        piece = piece.strip()
        if not piece:
            continue
        lits = _CPP_STR.findall(piece)
        rest = _CPP_STR.sub("", piece).strip().strip("()").strip()
        if lits and not rest:
            parts.append("".join(lits))
        elif lits and re.fullmatch(r"[\w:.\->]*\(?\s*\)?\s*\+?", rest or ""):
            parts.append("".join(lits))
        elif re.fullmatch(r"std::endl|endl", piece):
            continue
        else:
            lit = "".join(lits)
            # "x" + var + "y" concatenations keep their literals around placeholders
            if "+" in piece and lits:
                segs = [s.strip() for s in re.split(r"\+(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", piece)]
                parts.append("".join(_CPP_STR.findall(s)[0] if _CPP_STR.fullmatch(s) else "{}" for s in segs))
            elif lit:
                parts.append("{}" + lit)
            else:
                parts.append("{}")
    text = "".join(parts)
    text = text.replace('\\"', '"').replace("\\n", " ").replace("\\t", " ")
    return re.sub(r"\s+", " ", text).strip()


CPP_MACROS = re.compile(r"\b(ULOG_ERROR|ULOG_CRITICAL|MINDIE_LLM_LOG_ERROR|MINDIE_LLM_LOG_FATAL|"
                        r"ATB_SPEED_LOG_ERROR|ATB_SPEED_LOG_FATAL)\s*\(")
COUT = re.compile(r"std::c(?:out|err)\s*<<")


def cpp_entries(repo: str, path: str, consts: dict[str, str]) -> list[dict]:
    raw = read_file(repo, path)
    text = _strip_comments(raw)
    out = []
    in_atb = path.startswith(ATB_DIR)
    for m in CPP_MACROS.finditer(text):
        macro = m.group(1)
        if text[max(0, m.start() - 8):m.start()].strip().endswith("define"):
            continue
        end = _balanced(text, m.end() - 1)
        args = _split_args(text[m.end():end - 1])
        line = text.count("\n", 0, m.start()) + 1
        code = None
        if macro.startswith("ULOG"):
            if len(args) < 3:
                continue
            msg = ",".join(args[2:])
            code = server_code(args[1], consts)
        else:
            msg = args[0]
            if len(args) > 1 and args[-1] in LLM_CODES:
                code = LLM_CODES[args[-1]]
            if in_atb and code is None:
                continue  # atb_framework: only the calls that carry an MIE05 code
        template = cpp_stream_template(msg)
        if len(template) < 3 or not re.search(r"[A-Za-z]{2}", template):
            continue
        kind = macro + (f" [{code}]" if code else "")
        out.append({"template": template, "path": path, "line": line, "kind": kind})
    if path.startswith(("src/config_manager/", "src/utils/", "src/server/")):
        for m in COUT.finditer(text):
            end = text.find(";", m.end())
            expr = text[m.end():end]
            template = cpp_stream_template(expr)
            line = text.count("\n", 0, m.start()) + 1
            if not _looks_like_error(template):
                continue
            kind = "std::cerr" if text[m.start():m.start() + 9] == "std::cerr" else "std::cout"
            out.append({"template": template, "path": path, "line": line, "kind": kind})
    if path.endswith("core/base/model.cpp"):
        for m in re.finditer(r'throw std::runtime_error\(\s*"([^"]+)"', text):
            out.append({"template": m.group(1), "path": path, "line": text.count("\n", 0, m.start()) + 1,
                        "kind": "throw std::runtime_error"})
    return out


def _looks_like_error(text: str) -> bool:
    return bool(re.search(r"\b(?:ERR|[Ee]rror|[Ff]ail(?:ed|s)?|[Ii]nvalid|must|should|not|exceed|cannot|can't|"
                          r"[Uu]nknow|illegal|out of|outside|too long|too large|missing|[Uu]nsupported|mismatch|"
                          r"[Ee]xception)",
                          text))


# ------------------------------------------------------------------ Python parsing
def _py_str(node: ast.AST, assigns: dict[str, list[tuple[int, ast.AST]]], at: int, depth: int = 0) -> str | None:
    if depth > 12:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                parts.append("{}")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _py_str(node.left, assigns, at, depth + 1)
        right = _py_str(node.right, assigns, at, depth + 1)
        if left is None and right is None:
            return None
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _py_str(node.left, assigns, at, depth + 1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = _py_str(node.func.value, assigns, at, depth + 1)
        return re.sub(r"\{[^{}]*\}", "{}", base) if base is not None else None
    if isinstance(node, ast.Name) and node.id in assigns:
        earlier = [v for ln, v in assigns[node.id] if ln <= at]
        if earlier:
            return _py_str(earlier[-1], assigns, at, depth + 1)
    return None


# mindie_llm/utils/validation.py: ValidationError(param, detail) prints "The parameter `<param>` is invalid: <detail>"
VALIDATION_ERRORS = {
    "OutOfBoundsError": "It exceeds the safety limit `{}` as `{}`. If you believe this boundary value is unreasonable, "
                        "please modify the boundary value under path `mindie_llm.utils.validation`.",
    "UnsupportedTypeError": "Its type is not supported, which should be `{}`.",
    "InconsistencyError": "The {} is not equal to {}.",
    "ValidationError": "{}",
}


def _func_assigns(func: ast.AST) -> dict[str, list[tuple[int, ast.AST]]]:
    out: dict[str, list[tuple[int, ast.AST]]] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out.setdefault(node.targets[0].id, []).append((node.lineno, node.value))
    for v in out.values():
        v.sort(key=lambda x: x[0])
    return out


def _code_of(call: ast.Call) -> str | None:
    for a in list(call.args[1:]) + [k.value for k in call.keywords]:
        if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "ErrorCode":
            return LLM_CODES.get(a.attr)
    return None


def py_entries(repo: str, path: str) -> list[dict]:
    try:
        tree = ast.parse(read_file(repo, path))
    except SyntaxError:
        return []
    out = []
    scopes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    owner: dict[int, ast.AST] = {}
    for scope in scopes:  # innermost function wins (walk order: outer before inner)
        for node in ast.walk(scope):
            owner[id(node)] = scope
    cache: dict[int, dict] = {}
    module_assigns = {n.targets[0].id: [(n.lineno, n.value)] for n in tree.body
                      if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
    for node in ast.walk(tree):
        kind, msg_node, code = None, None, None
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in VALIDATION_ERRORS and path.startswith("mindie_llm/"):
                # mindie_llm/utils/validation.py: the message is composed from the parameter name
                param = _py_str(node.exc.args[0], {}, node.lineno)
                if param is not None:
                    out.append({"template": f"The parameter `{param}` is invalid: " + VALIDATION_ERRORS[name],
                                "path": path, "line": node.lineno, "kind": f"raise {name}"})
                continue
            if name:
                kind, msg_node = f"raise {name}", node.exc.args[0]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            f = node.func
            base = f.value.id if isinstance(f.value, ast.Name) else f.value.attr if isinstance(
                f.value, ast.Attribute) else ""
            if f.attr in ("error", "critical", "fatal") and "log" in base.lower():
                kind, msg_node, code = f"logger.{f.attr}", node.args[0], _code_of(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print_log" \
                and len(node.args) >= 3:
            lvl = node.args[1]
            if isinstance(lvl, ast.Attribute) and lvl.attr in ("error", "critical"):
                kind, msg_node = f"print_log {lvl.attr}", node.args[2]
        if kind is None:
            continue
        scope = owner.get(id(node), tree)
        assigns = cache.setdefault(id(scope), {**module_assigns, **_func_assigns(scope)})
        template = _py_str(msg_node, assigns, node.lineno)
        if template is None:
            continue
        template = re.sub(r"\s+", " ", template).strip()
        if len(template) < 3 or not re.search(r"[A-Za-z\u4e00-\u9fff]{2}", template):
            continue
        if code:
            kind += f" [{code}]"
        out.append({"template": template, "path": path, "line": node.lineno, "kind": kind})
    out.sort(key=lambda e: e["line"])
    return out


# ------------------------------------------------------------------ FAQ pages
def faq_entries(repo: str, path: str) -> list[dict]:
    out = []
    text = read_file(repo, path)
    lines = text.splitlines()
    in_text_block = False
    for i, line in enumerate(lines, 1):
        s = line.strip()
        if s.startswith("```"):
            in_text_block = s in ("```text", "```") and not in_text_block
            if not s.startswith("```text") and in_text_block and s == "```":
                in_text_block = False
            continue
        if in_text_block and s:
            out.append({"template": s.replace("\\_", "_"), "path": path, "line": i, "kind": "doc"})
        for q in re.findall(r"[“\"]([^”\"]{6,120})[”\"]\s*(?:报错|的报错|错误)", s):
            out.append({"template": q.replace("\\_", "_"), "path": path, "line": i, "kind": "doc"})
        m = re.match(r"##+ .*?(?:报错|错误)[：:]\s*(.+)$", s)
        if m:
            out.append({"template": m.group(1).replace("\\_", "_"), "path": path, "line": i, "kind": "doc"})
        for extra in FAQ_EXTRA:
            if extra in s.replace("\\_", "_"):
                out.append({"template": FAQ_EXTRA[extra], "path": path, "line": i, "kind": "doc"})
    for e in out:
        if re.match(r"\{MindIE|\"quantize\"", e["template"]):
            e["excluded"] = R_DOC
    return out


# FAQ section titles that name a log line without quoting it: title text -> the line it names
FAQ_EXTRA = {
    "当出现undefinedsymbols": "undefined symbol: {}",
    "缺失环境变量MASTER_ADDR或MASTER_PORT": "environment variable MASTER_ADDR expected, but not set",
    "出现LLMPythonModel initializes fail的报错": "LLMPythonModel initializes fail",
    "出现atb_llm.runner无法import": "No module named 'atb_llm.runner'",
    "报错“cannot allocate memory in static TLS block”": "cannot allocate memory in static TLS block",
}


# ------------------------------------------------------------------ default exclusions
# Ordered (path regex, template regex, reason); the first rule whose both patterns match decides.
# ``None`` as a reason keeps the entry counted (a user-facing exception inside an excluded area).
R_NULL = "internal null / pointer check (a programming error; no configuration or input reaches it)"
R_IPC = ("internal IPC / gRPC plumbing between the server, the executor and the Python workers "
         "(serialization, handlers, queues, semaphores); no setting or input reaches it, and when it fires "
         "a crash or an earlier error is the cause")
R_STATE = ("internal bookkeeping check of the scheduler / engine / request pipeline (sequence ids, blocks, "
           "tensors); a programming error, not reachable through configuration or input")
R_RESP = ("response post-processing of an accepted request (encoding, utf-8, stream buffers, logprobs); "
          "internal, the request itself was valid")
R_DEV = ("developer API misuse (abstract method, registry, validator construction); not reachable from a "
         "deployment")
R_KERNEL = ("shape / layout check inside a model layer or kernel implementation (runtime layers, ops, "
            "weight wrappers); reached only by a code bug, not by a user setting")
R_TEST = "only reachable from tests or sample scripts"
R_DOC = "FAQ prose or a command shown on the page, not a log line"
R_RES = ("internal helper failure (memory allocation, thread pool, metrics collection, health-check simulation, "
         "sensitive-data buffers) with no setting or input behind it")

KEEP_CONFIG = (r"config|[Ee]nv|export |MASTER_|ASCEND_|NPU_MEMORY|permission|[Pp]ath\b|TLS|[Tt]ls|[Cc]ert|crl|"
               r"port\b|[Pp]ort |[Rr]ank ?[Tt]able|world ?size|worldSize|deploy_type|local IP|DP number|"
               r"launch Python worker|install|Please|please|out of memory|OOM|exceeds limit|too long sequence")
_SENSITIVE_OR_HEALTH = r"^src/server/endpoint/utils/SensitiveInfoManager\.cpp$|^src/server/endpoint/health_checker/"
EXCLUDE_RULES = [
    (r".", r"nullptr|null ?pointer|\bis null\b|\bis None\b|\bptr is|Ptr is|pointer is|cannot be null|"
           r"[Nn]o[nN]e[Tt]ype adaptee", R_NULL),
    (r".", r"\bunit ?test\b|\bmock\b", R_TEST),
    (r"^mindie_llm/examples/", r".", R_TEST),
    (r".", r"Subclass(?:es)? must implement|is not defined in `|not implemented in register_|must be subclass|"
           r"is already registered|registered in the attribute map|has not been set$|No validator found|"
           r"At least one (?:constraint|Field)|Cannot specify both|cannot be greater than '|Action for argument|"
           r"does not have attribute|function not implemented|Let's make that generic", R_DEV),
    (r"parameter_validators\.py$|json_completor\.py$|argument_utils\.py$", r".", R_DEV),
    # executor / gRPC / IPC
    (r"^src/executor/", KEEP_CONFIG, None),
    (r"^src/executor/", r".", R_IPC),
    (r"^src/server/endpoint/grpc_wrapper/|^src/include/utils/blocking_queue\.h|event_dispatcher|"
     r"threadpool_monitor|random_generator|simulate_", r"TLS|[Cc]ert|crl|port|listen", None),
    (r"^src/server/endpoint/grpc_wrapper/|^src/include/utils/blocking_queue\.h|event_dispatcher|"
     r"threadpool_monitor|random_generator|simulate_", r".", R_IPC),
    (r"^mindie_llm/connector/", r"HCCL execute error|CANN execute error|pull kv cache failed|config\.json|"
                                r"request listener cannot be launched", None),
    (r"^mindie_llm/connector/", r".", R_IPC),
    (r"^mindie_llm/utils/layerwise/|layerwise_disaggregated/", r"configuration is invalid|certificate|cert", None),
    (r"^mindie_llm/utils/layerwise/|layerwise_disaggregated/", r".", R_IPC),
    # scheduler / engine / llm manager bookkeeping
    (r"^src/(?:scheduler|engine|load_balance|sequence|llm_manager)/",
     r"exceeds limit|too long sequence|tpSize|LoRA|Lora", None),
    (r"^src/(?:scheduler|engine|load_balance|sequence|llm_manager)/", r".", R_STATE),
    (r"^src/llm_manager_v2/", r"plugin|templateType|splitChunkTokens|Prefix cache|Env variable|Config manager|"
                              r"Unexpect Input Id|modelInstanceId|Multi Lora", None),
    (r"^src/llm_manager_v2/", r".", R_STATE),
    (r"^src/server/infer_instances/|^src/server/endpoint/single_llm_req_handler/",
     r"config|[Pp]ort|listen|init|Init|start|npu|NPU|[Dd]evice", None),
    (r"^src/server/infer_instances/|^src/server/endpoint/single_llm_req_handler/", r".", R_STATE),
    (r"^src/server/", r"[Ee]ncode|utf8|Failed to process \w+ response|[Pp]ost process|dumped|Get available output|"
                      r"insert performance|[Ll]ogprobs|PrevDecodeIndex|Convert token to text|[Dd]etokeniz|"
                      r"Parse one single infer result|Generate (?:general )?tgi response|generate response details|"
                      r"process stream cache|sequence id|vector index out of range|access failed", R_RESP),
    (r"^src/utils/common_util\.cpp$", r"sequence id|vector index|access failed", R_STATE),
    (_SENSITIVE_OR_HEALTH, r"NPU device|device id", None),
    (_SENSITIVE_OR_HEALTH, r".", R_RES),
    (r"^src/", r"Failed to alloc mem|Failed to resize|Failed to create thread pool|Internal exception|"
               r"metrics|Failed to create random generator|dladdr failed|Failed to get free slots|"
               r"Failed to get request block quotas|memset_s failed|Malloc \w+ failed", R_RES),
    (r"^src/utils/memory_utils\.cpp$", r"'(?:dest|src|pointer|destBufLen)", R_STATE),
    # Python model internals
    (r"^mindie_llm/runtime/ops/|^examples/atb_models/atb_llm/utils/quantize/low_bit|"
     r"^examples/atb_models/atb_llm/utils/shm_utils\.py$", r".", R_KERNEL),
    (r"^mindie_llm/runtime/layers/|^examples/atb_models/atb_llm/utils/data/|^examples/atb_models/atb_llm/utils/weights\.py$",
     r"load weights of size|not found in quantization|LoRA only supports|RoPE scaling|nz weight|gptq|"
     r"cannot be sharded|Could not find part directory|MoE strategy|check the config|does not exist", None),
    (r"^mindie_llm/runtime/layers/|^examples/atb_models/atb_llm/utils/data/|^examples/atb_models/atb_llm/utils/weights\.py$",
     r".", R_KERNEL),
    (r"^mindie_llm/text_generator/mempool/", r"[Ii]nstall|[Ii]nitiali[sz]|init failed|Configuration|protocol|"
                                             r"not available|Unknown cache engine", None),
    (r"^mindie_llm/text_generator/mempool/", r".", R_IPC),
    (r"^mindie_llm/text_generator/", r"must be set before|Do not support sp currently|does not match the length of|"
                                     r"Expected 0 decode requests|did not finish all requests|"
                                     r"Unknown recovery command|Unknown exception", R_STATE),
    (r"^mindie_llm/tokenizer/", r"pre_index|current_index|encode result is not 1 Dimension", R_STATE),
    (r"^src/server/tokenizer/infer_tokenizer\.cpp$", r"[Cc]ast buffer|Cannot find (?:pid memory index|mem|available)|"
                                                    r"toolCallsJson|Invalid text length|tiktoken", R_IPC),
    (r"^mindie_llm/text_generator/samplers/", r"No such (?:handler|selector) backend|does not have such|"
                                              r"policy config does not support|batch size of|size of \w+ and|"
                                              r"sequence_ids in prefilling", R_STATE),
    (r"^mindie_llm/model_wrapper/utils/common_util\.py$", r"transfer operation|requests is not set|decisions failed|"
     r"Number of chunks|cannot be divided evenly|ip_array", R_STATE),
    (r"^src/utils/log/file_utils\.cpp$", r"seeking|fseek|File close failed|failed to open file|Input data size", R_RES),
]
_EXCLUDE = [(re.compile(p), re.compile(t), r) for p, t, r in EXCLUDE_RULES]


def default_exclusion(entry: dict) -> str | None:
    path, text = entry["path"], entry["template"]
    if entry.get("kind") == "doc":
        return None
    for pat, tpat, reason in _EXCLUDE:
        if pat.search(path) and tpat.search(text):
            return reason
    return None


def main(repo: str) -> None:
    consts = server_code_tables(repo)
    LLM_CODES.update(llm_code_table(repo))
    entries: list[dict] = []
    files = list_files(repo)
    for path in files:
        if path.endswith((".cpp", ".h", ".cc")) and path.startswith(tuple(CPP_DIRS)) \
                and not path.startswith(CPP_SKIP) and "/test" not in path:
            entries += cpp_entries(repo, path, consts)
        elif path.startswith(ATB_DIR) and path.endswith((".cpp", ".h")):
            entries += cpp_entries(repo, path, consts)
        elif path.endswith(".py") and path.startswith(tuple(PY_DIRS)) and "/tests/" not in path:
            entries += py_entries(repo, path)
    for page in FAQ_PAGES + [p for p in files if p.startswith(FAQ_DIR) and p.endswith(".md")]:
        entries += faq_entries(repo, page)
    # entries the catalog already gives a rule (tools/catalog/mindie_internal_rules.py covers the internal checks
    # that the default exclusions below used to set aside) keep it: no default exclusion on top of a rule
    target = Path(__file__).resolve().parents[2] / "catalogs" / "mindie.yaml"
    ruled = set()
    if target.exists():
        import yaml

        old = yaml.safe_load(target.read_text(encoding="utf-8")) or {}
        ruled = {(o["path"], o["template"]) for o in old.get("entries", []) if o.get("rule")}
    for e in entries:
        reason = default_exclusion(e)
        if reason and (e["path"], e["template"]) not in ruled:
            e["excluded"] = reason
    write_catalog(
        name="mindie",
        title="MindIE (MindIE-LLM: MindIE Server, MindIE LLM, atb_llm runner) error texts and FAQ log lines",
        repo_name="Ascend/MindIE-LLM",
        commit=head_commit(repo),
        paths=["src/", "examples/atb_models/atb_framework/", *PY_DIRS, *FAQ_PAGES, FAQ_DIR],
        extractor="tools/catalog/mindie.py",
        entries=entries,
    )


if __name__ == "__main__":
    main(snapshot_arg(sys.argv))
