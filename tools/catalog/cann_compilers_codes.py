"""Add the graph engine's error codes (hicann/ge ``base/common/error_registry/error_registry.cc``: E10xxx-E16xxx,
W11xxx) to the ``cann_error`` code table (rules/codes/cann_error.yaml), which came from the runtime's shared
error_code.json and lacks them. Codes already in the table are left as they are (E19999 is curated there).

Each new entry has the table's fields: ``name`` (errTitle), ``meaning`` (class and title, like the table's
uncurated entries), ``causes`` and ``actions`` in our words per family (the family's compiler.* rule names the
cause from the message), ``documented`` (true when GE's table gives a cause or a solution), ``confidence`` and
``zh``.

Usage: ``python tools/catalog/cann_compilers_codes.py SNAPSHOT_OF_GE``
"""

# ruff: noqa: E501  (data: the texts are long strings)
from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import read_file, snapshot_arg  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "rules/codes/cann_error.yaml"
GE_TABLE = "base/common/error_registry/error_registry.cc"

COLLECT = ("Collect the host plog ($HOME/ascend/log/debug/plog, or the ASCEND_PROCESS_LOG_PATH directory) and the "
           "device logs (`msnpureport -f` or `asys collect`) and find the first ERROR line before this code.")
COLLECT_ZH = ("收集 Host 侧 plog（$HOME/ascend/log/debug/plog，或 ASCEND_PROCESS_LOG_PATH 指定的目录）和 Device 侧日志"
              "（`msnpureport -f` 或 `asys collect`），找到该错误码之前的第一条 ERROR。")

#: family -> (codes, causes, actions, zh causes, zh actions); the families of rules/compiler.yaml.
FAMILIES = {
    "option": (
        "E10001 E10002 E10003 E10004 E10005 E10006 E10007 E10008 E10009 E10010 E10011 E10012 E10013 E10014 E10016 E10017 "
        "E10018 E10019 E10020 E10021 E10022 E10023 E10024 E10025 E10026 E10027 E10029 E10030 E10031 E10032 E10034 E10035 "
        "E10036 E10037 E10038 E10039 E10040 E10045 E10046 E10047 E10048 E10049 E10050 E10051 E10052 E10054 E10055 E10056 "
        "E10057 E10058 E10059 E10060 E10061 E10062 E10063 E11016 E11017 E13027",
        "ATC or the graph engine refused an option or argument before compiling (missing, misspelt or unquoted option, mutually exclusive dynamic-shape options, a value outside the allowed range); the message names the option and what it must hold (rule compiler.atc-option-invalid).",
        ["Correct the option the message names (`atc --help` lists the options of the installed release; quote values that contain `;` or spaces).", COLLECT],
        "ATC 或图引擎在编译前拒绝了某个选项或参数（缺失、拼错或未加引号、同时给了互斥的动态 shape 选项、取值超出范围）；报错写明了选项名和应取的值（规则 compiler.atc-option-invalid）。",
        ["按报错修正对应选项（`atc --help` 列出当前版本的选项；含 `;` 或空格的值要加引号）。", COLLECT_ZH]),
    "aclop": (
        "E10401 E10402 E10403 E10404 E10405 E10406 E13014 E13025 E13031 E14001 E14002",
        "A single operator was described with inputs, outputs, buffers or attributes that do not agree with each other or with its prototype (aclopCompile / aclopExecute, atc --singleop); rule compiler.aclop-io-mismatch.",
        ["Match the input / output descs, their buffers (`aclGetTensorDescSize` bytes each) and the required attributes to the operator prototype.", COLLECT],
        "单算子的输入、输出、buffer 或属性彼此不一致，或与算子原型不一致（aclopCompile / aclopExecute、atc --singleop）；规则 compiler.aclop-io-mismatch。",
        ["让输入输出 desc、对应 buffer（每个 `aclGetTensorDescSize` 字节）和必需属性与算子原型一致。", COLLECT_ZH]),
    "model": (
        "E10041 E11001 E11003 E11004 E11005 E11008 E11012 E11014 E11015 E11018 E11021 E11022 E11023 E11024 E11027 E11029 "
        "E11032 E11033 E11035 E11036 E11037 E12004 E12009 E12013 E12029 E13009 E16001 E16004 E16005",
        "ATC's model parser refused the source model (Caffe `layers` blocks or weights that do not match the prototxt, a TensorFlow input or function subgraph missing, an ONNX model without graph or with several opsets for one domain, duplicate node names); rule compiler.model-parse-invalid.",
        ["Fix and re-export the model element the message names, and check that --model, --weight and --framework belong to the same model.", COLLECT],
        "ATC 的模型解析器拒绝了源模型（Caffe 的 `layers` 块或与 prototxt 不匹配的权重、TensorFlow 缺少输入或函数子图、ONNX 没有 graph 或同一 domain 有多个 opset、节点重名）；规则 compiler.model-parse-invalid。",
        ["修正报错中指出的模型元素后重新导出，并确认 --model、--weight 和 --framework 属于同一个模型。", COLLECT_ZH]),
    "parser": (
        "E10501 E11009 E13010 E16002",
        "The model has an operator type for which the installed CANN has no parser, plugin or prototype: an ONNX opset newer than supported for that op, a framework-specific or custom op, or a custom op package not installed; rule compiler.op-not-registered.",
        ["Re-export with a supported opset, replace the op, or install the custom op package that provides it (ASCEND_CUSTOM_OPP_PATH).", COLLECT],
        "模型中有安装的 CANN 没有解析器、插件或原型的算子类型：该算子的 ONNX opset 比支持的更新、框架专有或自定义算子，或提供它的自定义算子包没有安装；规则 compiler.op-not-registered。",
        ["用支持的 opset 重新导出、替换该算子，或安装提供它的自定义算子包（ASCEND_CUSTOM_OPP_PATH）。", COLLECT_ZH]),
    "file": (
        "E10410 E13000 E13001 E13002 E13003 E13004 E13005 E13006 E13015 E13018 E13023 E13026",
        "The graph engine could not open, read, write or parse a file (wrong or relative path, no permission, disk full, a file of another type or protobuf version, a model larger than an .om may be); rule compiler.ge-file-error.",
        ["Check the named path as the user that runs the job (`ls -l`, `df -h`), use absolute paths, and regenerate a file that does not parse.", COLLECT],
        "图引擎无法打开、读取、写入或解析某个文件（路径错误或为相对路径、没有权限、磁盘满、文件类型或 protobuf 版本不对、模型超过 .om 允许的大小）；规则 compiler.ge-file-error。",
        ["用运行任务的用户检查报错中的路径（`ls -l`、`df -h`），使用绝对路径，无法解析的文件重新生成。", COLLECT_ZH]),
    "env": (
        "E13024",
        "A graph-engine environment variable holds a value it does not accept; the message names the variable and why (the op.* / hccl.* rules name the common ones); rule compiler.compile-config-invalid.",
        ["Set the named variable as the reason says, or unset it, in the shell that runs the job.", COLLECT],
        "某个图引擎环境变量的取值不被接受；报错写明了变量名和原因（op.* / hccl.* 规则覆盖常见的变量）；规则 compiler.compile-config-invalid。",
        ["在运行任务的 shell 中按原因设置或取消该变量。", COLLECT_ZH]),
    "pass": (
        "E13028 E13029 E13030",
        "A custom graph fusion pass library failed to load (dlopen: missing dependency, wrong ABI), to register, or returned an error; rule compiler.custom-pass-failed.",
        ["Check the pass library with `ldd` against the CANN release that loads it, its registration, and the pass logic on the node the plog names.", COLLECT],
        "自定义图融合 pass 库加载失败（dlopen：缺依赖、ABI 不符）、注册失败，或 pass 返回了错误；规则 compiler.custom-pass-failed。",
        ["用 `ldd` 对照加载它的 CANN 版本检查 pass 库，检查注册以及 plog 指出的节点上的 pass 逻辑。", COLLECT_ZH]),
    "warning": (
        "W11001 W11002 W11003",
        "A compilation warning (an op on a slower implementation, weight-compression config naming absent nodes, an operator lacking an implementation such as tiling); the conversion goes on; rule compiler.compile-warning.",
        ["Nothing to do for the conversion; act on the named op or config if a later error or slow run follows."],
        "编译告警（算子走了较慢的实现、权重压缩配置中有不存在的节点、算子缺少 tiling 等实现）；转换继续进行；规则 compiler.compile-warning。",
        ["转换不需要处理；后续出现错误或运行变慢时再处理报出的算子或配置。"]),
}

TITLE_ZH = {
    "Invalid_Argument": "参数非法", "Invalid_Argument_Tensor_Input_Shape": "参数非法：输入 shape", "Invalid_Argument_Tensor_Dynamic_Shape": "参数非法：动态 shape",
    "Invalid_Argument_Operator_Name": "参数非法：算子名", "File_Operation_Error_Parse": "文件操作错误：解析失败", "Invalid_Argument_Model": "参数非法：模型",
    "Invalid_Argument_Tensor_Input_Shape_Range": "参数非法：输入 shape 范围", "Not_Supported": "不支持", "Invalid_Argument_API_Call_Sequence": "参数非法：接口调用顺序错误",
    "Environment_Error": "环境错误", "Invalid_Argument_Operator_Input_Count": "参数非法：算子输入个数", "Invalid_Argument_Operator_Input_Buffer": "参数非法：算子输入 buffer",
    "Invalid_Argument_Operator_Output_Count": "参数非法：算子输出个数", "Invalid_Argument_Operator_Output_Buffer": "参数非法：算子输出 buffer",
    "File_Operation_Error_File_Not_Exist": "文件操作错误：文件不存在", "Not_Supported_Operator": "不支持该算子", "Invalid_Argument_Caffe_Model_Data": "参数非法：Caffe 模型数据",
    "Invalid_Argument_Caffe_Model_Weight": "参数非法：Caffe 模型权重", "Invalid_Argument_Operator_Input_Index": "参数非法：算子输入索引",
    "Invalid_Argument_TensorFlow_Model_Data": "参数非法：TensorFlow 模型数据", "File_Operation_Error_Invalid_Path": "文件操作错误：路径无效",
    "File_Operation_Error_Open": "文件操作错误：打开失败", "Directory_Operation_Error_Name_Too_Long": "目录操作错误：名称过长", "File_Operation_Error_Read": "文件操作错误：读取失败",
    "File_Operation_Error_Write": "文件操作错误：写入失败", "File_Operation_Error_Invalid_File_Size": "文件操作错误：文件大小无效", "Invalid_Argument_OM_Model_Size": "参数非法：OM 模型大小",
    "Config_Error_Invalid_Environment_Variable": "配置错误：环境变量无效", "Invalid_Argument_Network_Connection": "参数非法：网络连接",
    "Compilation_Error_Execute_Custom_Fusion_Pass": "编译错误：自定义融合 pass 执行失败", "Compilation_Error_Load_Custom_Fusion_Pass": "编译错误：自定义融合 pass 加载失败",
    "Initialization_Error_Register_Custom_Fusion_Pass": "初始化错误：自定义融合 pass 注册失败", "Invalid_Argument_Operator_Compilation_Parameter": "参数非法：算子编译参数",
    "Invalid_Argument_Tensor_Attribute": "参数非法：张量属性", "Invalid_Argument_ONNX_Model_Data": "参数非法：ONNX 模型数据", "Inner_Error": "内部错误",
    "Performance_Not_Optimal_Operator": "性能非最优的算子", "Config_Error_Weight_Configuration": "配置错误：权重配置",
    "Config_Error_Operator_Missing_Implementation": "配置错误：算子缺少实现",
}

#: GE's E10014 number is also printed by HCCL releases as Config_Error_Ranktable(E10014) (rule field.*).
NOTES = {
    "E10014": (" Some HCCL releases print the same number as Config_Error_Ranktable(E10014) for a ranktable path; that line is HCCL's.",
               "部分 HCCL 版本也用这个编号打印 Config_Error_Ranktable(E10014)（ranktable 路径错误），那一行属于 HCCL。"),
}


def ge_rows(ge: str) -> list[dict]:
    text = read_file(ge, GE_TABLE)
    start = text.index("{", text.index('R"(') + 3)
    return json.loads(text[start:text.rindex(')"')])["error_info_list"]


def entries(ge: str) -> dict[str, dict]:
    family_of = {code: fam for fam, spec in FAMILIES.items() for code in spec[0].split()}
    out = {}
    for row in ge_rows(ge):
        code = row["ErrCode"]
        fam = family_of.get(code)
        if fam is None:  # E19999: curated in the table already
            continue
        _, causes, actions, zh_causes, zh_actions = FAMILIES[fam]
        note, zh_note = NOTES.get(code, ("", ""))
        msg = " ".join(row["ErrMessage"].split())
        sugg = row.get("suggestion", {})
        documented = any(sugg.get(k, "N/A").strip(" .") not in ("N/A", "") for k in ("Possible Cause", "Solution"))
        title = row["errTitle"]
        out[code] = {
            "name": title,
            "meaning": f"GE Errors: {title.replace('_', ' ').lower()}",
            "causes": f'{causes} Message: "{msg}".{note}',
            "actions": list(actions),
            "documented": documented,
            "confidence": "likely",
            "zh": {"meaning": f"图引擎（GE）：{TITLE_ZH.get(title, title)}", "causes": f"{zh_causes}报错格式：\"{msg}\"。{zh_note}",
                   "actions": list(zh_actions)},
        }
    return out


def main(argv: list[str]) -> None:
    ge = snapshot_arg(argv)
    text = TABLE.read_text(encoding="utf-8")
    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("#"))
    doc = yaml.safe_load(text)
    codes = doc["codes"]
    new = {c: e for c, e in entries(ge).items() if c not in codes}
    codes.update(new)
    doc["codes"] = dict(sorted(codes.items()))
    url = "https://github.com/hicann/ge/blob/master/base/common/error_registry/error_registry.cc"
    if url not in doc["source"]:
        doc["source"].append(url)
    TABLE.write_text(header + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
    print(f"{TABLE.name}: {len(new)} GE codes added, {len(codes)} codes")


if __name__ == "__main__":
    main(sys.argv)
