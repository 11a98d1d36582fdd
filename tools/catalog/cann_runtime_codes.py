"""Fill the runtime code tables (rules/codes/acl_error.yaml, cann_module.yaml) with causes, actions,
confidence and Chinese text written by the runtime family (data below; the words are ours, drafted from
rt_error_codes.h / acl_base.h names, the runtime's errcode_manage.cc / error_code.cc mappings and the
hicann/runtime FAQ). Keeps each table's name / meaning / source and its header comment.

Usage: ``python tools/catalog/cann_runtime_codes.py`` (no network; re-run after editing the data).
"""

# ruff: noqa: E501  (data file: the table texts are long strings)
from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]

COLLECT = ("Collect the host plog ($HOME/ascend/log/debug/plog, or the ASCEND_PROCESS_LOG_PATH directory) and the "
           "device logs (`msnpureport -f` or `asys collect`) and find the first ERROR line before this code.")
COLLECT_ZH = ("收集 Host 侧 plog（$HOME/ascend/log/debug/plog，或 ASCEND_PROCESS_LOG_PATH 指定的目录）和 Device 侧日志"
              "（`msnpureport -f` 或 `asys collect`），找到该错误码之前的第一条 ERROR。")
VERSIONS = ("Check that torch_npu / the serving framework and CANN are a supported pair and that the driver matches "
            "the CANN release notes; upgrade the older side.")
VERSIONS_ZH = "确认 torch_npu / 服务框架与 CANN 配套、驱动版本符合 CANN 版本说明的要求，升级较旧的一方。"


def e(causes, actions, zh_meaning, zh_causes, zh_actions, documented=True, confidence="likely"):
    return {"causes": causes, "actions": list(actions), "documented": documented, "confidence": confidence,
            "zh": {"meaning": zh_meaning, "causes": zh_causes, "actions": list(zh_actions)}}


def internal(zh_meaning, what="the runtime"):
    """A code whose source documents no cause: say so and name what to collect."""
    return e(f"No cause is documented for this code; it reports an internal state of {what}, not something an input "
             "or setting produces.", [COLLECT, VERSIONS], zh_meaning,
             "源码未给出该错误码的原因：它表示内部状态异常，不是输入或配置直接导致的。", [COLLECT_ZH, VERSIONS_ZH],
             documented=False, confidence="likely")


ACL: dict[str, dict] = {}

# ----------------------------------------------------------------------------------------- 1000xx ACL usage
def usage(code, causes, actions, zm, zc, za, conf="likely"):
    ACL[code] = e(causes, actions, zm, zc, za, confidence=conf)

usage("100000", "An ACL API was called with an argument outside what it accepts (null, out of range, wrong enum).",
      ["Read the ACL plog line before the code: it names the API and argument; fix the caller.", VERSIONS],
      "ACL 接口的某个参数非法", "调用 ACL 接口时传入了不被接受的参数（空指针、越界、错误的枚举值）。",
      ["看错误码之前的 ACL plog，它写明了接口和参数；修正调用方。", VERSIONS_ZH])
usage("100001", "An ACL API ran before aclInit (or before the feature's own init), or after aclFinalize.",
      ["Call aclInit once at process start, before any other ACL call, and aclFinalize only at exit.",
       "In multi-process frameworks make sure each worker process initialises ACL / torch_npu itself (no fork after init)."],
      "ACL 未初始化（未调用 aclInit，或缺少某个功能的初始化）", "在 aclInit（或某功能自身的初始化）之前、或在 aclFinalize 之后调用了 ACL 接口。",
      ["进程启动时先调用一次 aclInit，再调用其他 ACL 接口；只在退出时调用 aclFinalize。",
       "多进程框架中确保每个 worker 进程自己初始化 ACL / torch_npu（初始化之后不要 fork）。"])
usage("100002", "aclInit (or a load API) was called a second time in the same process.",
      ["Treat it as harmless when the second call uses the same configuration; otherwise call aclInit once and pair it with aclFinalize (see the runtime FAQ on aclInit)."],
      "重复初始化或重复加载", "同一进程中第二次调用了 aclInit（或某个加载接口）。",
      ["第二次调用配置相同时可以忽略；否则只调用一次 aclInit，并与 aclFinalize 成对使用（见 Runtime FAQ 中的 aclInit 章节）。"], conf="confirmed")
for code, zm in [("100003", "文件无效或无法访问"), ("100004", "写文件失败（路径或权限问题）"), ("100005", "文件大小无效"),
                 ("100006", "解析文件失败"), ("100007", "文件缺少必需的属性"), ("100008", "文件属性值无效")]:
    usage(code, "A file passed to ACL (model, acl.json, config) does not exist, is unreadable, is empty or has a bad format.",
          ["Check the path (absolute, readable by the service user) and validate the file (e.g. `python -m json.tool acl.json`).",
           "Regenerate model files with the ATC of the same CANN version."],
          zm, "传给 ACL 的文件（模型、acl.json、配置）不存在、不可读、为空或格式错误。",
          ["检查路径（绝对路径、服务用户可读），并校验文件（例如 `python -m json.tool acl.json`）。", "用同版本 CANN 的 ATC 重新生成模型文件。"])
usage("100009", "The dump section of the ACL configuration is invalid (path, mode or op list).",
      ["Fix the `dump` block of acl.json (existing writable `dump_path`, valid `dump_mode`) or remove it."],
      "dump 配置无效", "ACL 配置中的 dump 部分无效（路径、模式或算子列表）。", ["修正 acl.json 的 `dump` 配置（存在且可写的 `dump_path`、合法的 `dump_mode`），或删除它。"])
usage("100010", "The profiling configuration is invalid.",
      ["Fix the profiling options (msprof / acl.json / torch_npu profiler arguments); one session per device."],
      "profiling 配置无效", "profiling 配置无效。", ["修正 profiling 选项（msprof / acl.json / torch_npu profiler 参数）；每个设备同时只开一个采集会话。"])
for code, zm, c in [("100011", "模型 ID 无效", "The model id does not name a loaded model (never loaded, already unloaded, or from another process)."),
                    ("100012", "离线模型无法反序列化（可能是其他 CANN 版本生成的）", "The offline model (.om) cannot be deserialized: built by another CANN version or damaged."),
                    ("100013", "离线模型无法解析", "The offline model cannot be parsed: damaged file or incompatible version."),
                    ("100014", "模型文件无法读取", "The model file cannot be read (path, permission, size)."),
                    ("100015", "模型大小无效", "The model size passed or read is invalid (truncated file or wrong size argument)."),
                    ("100016", "模型缺少必需的属性", "The model lacks an attribute this ACL version needs: built by an older/newer ATC."),
                    ("100017", "模型输入不匹配", "The inputs given do not match the model (count, size, shape or dtype)."),
                    ("100018", "模型输出不匹配", "The output buffers given do not match the model."),
                    ("100019", "模型不是动态 shape 模型", "A dynamic-shape API was used on a model compiled with static shapes.")]:
    usage(code, c, ["Rebuild the model with the ATC of the installed CANN and check the input/output descriptions against it (aclmdlGetDesc).",
                    "Check the model id / buffers the caller passes."],
          zm, {"100011": "模型 ID 不对应已加载的模型（从未加载、已卸载或属于其他进程）。", "100012": "离线模型（.om）无法反序列化：由其他 CANN 版本生成或已损坏。",
               "100013": "离线模型无法解析：文件损坏或版本不兼容。", "100014": "模型文件无法读取（路径、权限、大小）。", "100015": "传入或读到的模型大小无效（文件被截断或大小参数错误）。",
               "100016": "模型缺少当前 ACL 版本需要的属性：由较旧/较新的 ATC 生成。", "100017": "传入的输入与模型不匹配（个数、大小、shape 或 dtype）。",
               "100018": "传入的输出缓冲区与模型不匹配。", "100019": "在静态 shape 编译的模型上使用了动态 shape 接口。"}[code],
          ["用已安装 CANN 的 ATC 重新生成模型，并对照模型描述（aclmdlGetDesc）检查输入输出。", "检查调用方传入的模型 ID / 缓冲区。"])
for code, zm in [("100020", "单算子类型不匹配"), ("100021", "单算子输入不匹配"), ("100022", "单算子输出不匹配"), ("100023", "单算子属性不匹配")]:
    usage(code, "The single operator executed does not match any compiled/loaded operator description (type, inputs, outputs or attributes differ).",
          ["Check the op type, tensor descriptions and attributes the caller passes; recompile the single-op model for them.", VERSIONS],
          zm, "执行的单算子与已编译/加载的算子描述不匹配（类型、输入、输出或属性不同）。",
          ["检查调用方传入的算子类型、张量描述和属性，并据此重新编译单算子模型。", VERSIONS_ZH])
usage("100024", "No operator of this type is known: the op is not supported on this chip or its kernel / op package is not installed.",
      ["Install the CANN ops / kernels package matching the toolkit and source set_env.sh; check that the op exists for your chip in the operator list.", VERSIONS],
      "找不到算子（类型不支持或缺少 kernel 包）", "不认识该类型的算子：当前芯片不支持它，或没有安装它的 kernel / 算子包。",
      ["安装与 toolkit 配套的 CANN ops / kernels 包并 source set_env.sh；在算子清单中确认该算子支持你的芯片。", VERSIONS_ZH])
usage("100025", "Loading a single operator failed (bad op model file or missing kernel).",
      ["Recompile the single-op model with the installed CANN; reinstall the kernels package.", COLLECT],
      "加载单算子失败", "加载单算子失败（单算子模型文件错误或缺少 kernel）。", ["用已安装的 CANN 重新编译单算子模型；重装 kernels 包。", COLLECT_ZH])
usage("100026", "A tensor dtype is not supported by the API or operator.",
      ["Cast the tensor to a supported dtype (see the operator's spec), or use the op variant that supports it."],
      "数据类型不支持", "接口或算子不支持该张量数据类型。", ["把张量转换为支持的数据类型（见算子规格），或改用支持它的算子变体。"])
usage("100027", "A tensor format (ND, NZ, NCHW...) does not match what the operator expects.",
      ["Convert the tensor to the expected format (npu_format_cast) or let the framework choose formats automatically.", VERSIONS],
      "张量格式不匹配", "张量格式（ND、NZ、NCHW 等）与算子要求的不一致。", ["把张量转换成要求的格式（npu_format_cast），或让框架自动选择格式。", VERSIONS_ZH])
for code, zm, c in [("100028", "算子没有注册二进制选择器", "No binary selector is registered for a dynamic operator (custom op registration missing)."),
                    ("100029", "算子 kernel 未注册", "The operator kernel is not registered: the kernel package or custom op library was not loaded."),
                    ("100030", "二进制选择器重复注册", "A binary selector was registered twice (custom op library loaded twice)."),
                    ("100031", "算子 kernel 重复注册", "An operator kernel was registered twice (two copies of a custom op package).")]:
    usage(code, c, ["Check ASCEND_CUSTOM_OPP_PATH / the custom op package and that it is loaded once; reinstall the kernels package matching the toolkit."],
          zm, {"100028": "动态算子没有注册二进制选择器（缺少自定义算子注册）。", "100029": "算子 kernel 未注册：kernel 包或自定义算子库没有加载。",
               "100030": "二进制选择器被注册了两次（自定义算子库被加载了两次）。", "100031": "算子 kernel 被注册了两次（存在两份自定义算子包）。"}[code],
          ["检查 ASCEND_CUSTOM_OPP_PATH / 自定义算子包，确认只加载一次；重装与 toolkit 配套的 kernels 包。"])
for code, zm, c in [("100032", "队列 ID 无效", "The queue id does not name an existing queue (tensor data queue APIs)."),
                    ("100033", "重复订阅", "A stream/report was subscribed twice."),
                    ("100034", "Stream 未订阅", "A callback / report API was used on a stream that was not subscribed."),
                    ("100035", "线程未订阅", "A callback was processed on a thread that was not subscribed."),
                    ("100036", "等待回调超时", "Waiting for a host callback timed out: the callback thread is not running or the stream never reached the callback."),
                    ("100037", "重复去初始化", "aclFinalize was called twice."),
                    ("100038", "没有静态 AIPP 配置", "A static-AIPP query was made on a model without static AIPP."),
                    ("100040", "未设置 group", "A group API was used before a compute group was set."),
                    ("100041", "group 未创建", "The requested compute group does not exist."),
                    ("100042", "profiling 任务已在运行", "Profiling was started while another profiling task runs."),
                    ("100043", "profiling 未初始化", "A profiling API was used before profiling was initialised."),
                    ("100044", "dump 任务已在运行", "A dump was started while another dump runs."),
                    ("100045", "dump 未初始化", "A dump API was used before dump was initialised.")]:
    usage(code, c, ["Follow the call order of the named API in the ACL API reference (create/subscribe/init before use, once each)."],
          zm, {"100032": "队列 ID 不对应已存在的队列（张量数据队列接口）。", "100033": "同一个 stream/上报被订阅了两次。", "100034": "在未订阅的 stream 上使用了回调/上报接口。",
               "100035": "在未订阅的线程上处理回调。", "100036": "等待 Host 回调超时：回调线程没有运行，或 stream 一直没有执行到回调。", "100037": "aclFinalize 被调用了两次。",
               "100038": "在没有静态 AIPP 的模型上查询静态 AIPP。", "100040": "在设置计算 group 之前使用了 group 接口。", "100041": "请求的计算 group 不存在。",
               "100042": "在已有 profiling 任务运行时又启动了 profiling。", "100043": "在 profiling 初始化之前使用了 profiling 接口。",
               "100044": "在已有 dump 运行时又启动了 dump。", "100045": "在 dump 初始化之前使用了 dump 接口。"}[code],
          ["按 ACL 接口文档中该接口的调用顺序使用（先创建/订阅/初始化再使用，且各只一次）。"])
usage("100039", "The process loaded the compile-time stub libraries (…/lib64/stub) instead of the real runtime: LD_LIBRARY_PATH puts the stub directory first.",
      ["Remove `.../stub` directories from LD_LIBRARY_PATH at run time and source `set_env.sh` again; stubs are only for linking."],
      "加载的是编译期桩库而不是真实的 Runtime 库", "进程加载了编译期桩库（…/lib64/stub）而不是真实 Runtime：LD_LIBRARY_PATH 把 stub 目录放在了前面。",
      ["运行时从 LD_LIBRARY_PATH 中去掉 `.../stub` 目录并重新 source `set_env.sh`；桩库只用于链接。"], conf="confirmed")
usage("148046", "The same model was subscribed twice for profiling.", ["Subscribe each model once (aclprofModelSubscribe)."],
      "同一模型被重复订阅 profiling", "同一个模型被订阅了两次 profiling。", ["每个模型只订阅一次（aclprofModelSubscribe）。"])
usage("148047", "Two profiling APIs that exclude each other were used together (e.g. subscription and msprof at once).",
      ["Use one profiling method per process."], "profiling 接口调用冲突", "同时使用了互斥的 profiling 接口（例如订阅方式与 msprof 同时使用）。", ["每个进程只使用一种 profiling 方式。"])
usage("148048", "The operator cache aging setting (max_opqueue_num) in the configuration is invalid.",
      ["Fix or remove max_opqueue_num in acl.json."], "算子缓存老化配置无效", "配置中的算子缓存老化参数（max_opqueue_num）无效。", ["修正或删除 acl.json 中的 max_opqueue_num。"])
usage("148049", "ASCEND_OPP_PATH is unset or points at a directory without the operator package: set_env.sh was not sourced.",
      ["Run `source /usr/local/Ascend/ascend-toolkit/set_env.sh` in the service's shell / entrypoint and check `echo $ASCEND_OPP_PATH`."],
      "ASCEND_OPP_PATH 未设置或路径错误", "ASCEND_OPP_PATH 未设置或指向的目录中没有算子包：没有 source set_env.sh。",
      ["在服务的 shell / 入口脚本中执行 `source /usr/local/Ascend/ascend-toolkit/set_env.sh`，并用 `echo $ASCEND_OPP_PATH` 检查。"], conf="confirmed")
usage("148050", "The operator has no dynamic-shape implementation but was called with dynamic shapes.",
      ["Use static shapes for this op (pad / bucket inputs) or upgrade CANN to a release with its dynamic kernel."],
      "算子不支持动态 shape", "算子没有动态 shape 实现，却以动态 shape 调用。", ["对该算子使用静态 shape（补齐 / 分档输入），或升级到提供其动态 kernel 的 CANN 版本。"])
usage("148051", "A resource was released while resources that depend on it were still alive (e.g. destroying a context that still owns streams).",
      ["Release in reverse order of creation: streams/events, then contexts, then reset the device."],
      "关联资源未释放", "在依赖它的资源仍存在时释放了某个资源（例如销毁仍持有 stream 的 context）。", ["按创建的逆序释放：先 stream/event，再 context，最后复位设备。"])
usage("148052", "The JPEG decoder (JPEGD) does not support this JPEG (e.g. progressive or an unsupported sampling format).",
      ["Convert the image to a baseline JPEG or decode it on the CPU."], "JPEGD 不支持该 JPEG 图片", "JPEG 解码器（JPEGD）不支持这张 JPEG（例如渐进式或不支持的采样格式）。", ["把图片转成 baseline JPEG，或在 CPU 上解码。"])
usage("161001", "An aclnn operator got a null pointer where a tensor or argument is required (the caller passed an undefined tensor).",
      ["Read the aclnn error line: it names the operator and argument; check the framework passes all required tensors.", VERSIONS],
      "aclnn 算子收到空指针参数", "aclnn 算子在需要张量或参数的位置收到了空指针（调用方传入了未定义的张量）。",
      ["看 aclnn 的报错行，它写明了算子和参数；确认框架传入了所有必需的张量。", VERSIONS_ZH])
usage("161002", "An aclnn operator rejected an argument: unsupported dtype, shape, format or attribute value for this op on this chip.",
      ["Read the aclnn check message (names the input and what is expected); cast/reshape accordingly or use a supported op.", VERSIONS],
      "aclnn 算子参数非法（dtype、shape 或格式不支持）", "aclnn 算子拒绝了某个参数：该算子在当前芯片上不支持此 dtype、shape、格式或属性值。",
      ["看 aclnn 的校验报错（写明了输入和期望值），相应地转换类型/调整 shape，或改用支持的算子。", VERSIONS_ZH], conf="confirmed")
# ----------------------------------------------------------------------------------------- 2000xx / 300000 / 500xxx ACL
usage("200000", "A host-side allocation inside ACL failed: the process is out of host memory or hit its memory limit.",
      ["Check host memory and the container limit (`free -g`, cgroup memory.max) and lower the host footprint."],
      "内存申请失败", "ACL 内部的 Host 内存申请失败：进程耗尽了 Host 内存或触到了内存上限。", ["检查 Host 内存和容器上限（`free -g`、cgroup memory.max），降低 Host 侧占用。"])
usage("200001", "The API is not supported in this mode / on this product (for example a feature of another Atlas product).",
      ["Check the API's product support in the ACL reference of your CANN version.", VERSIONS],
      "当前场景不支持该接口", "该接口在当前模式 / 产品上不支持（例如其他 Atlas 产品的特性）。", ["在所用 CANN 版本的 ACL 接口文档中查该接口的产品支持情况。", VERSIONS_ZH])
usage("200002", "The device id is invalid (old code; newer releases report 107001).",
      ["Use a device id within the visible devices (see ASCEND_RT_VISIBLE_DEVICES)."], "设备无效（已废弃，见 107001）", "设备 ID 无效（旧错误码，新版本报 107001）。", ["使用可见设备范围内的设备 ID（见 ASCEND_RT_VISIBLE_DEVICES）。"])
usage("200003", "A memory address is not aligned as the API requires (e.g. 64-byte alignment for async copies).",
      ["Allocate with aclrtMalloc / aclrtMallocHost (aligned) and do not pass offsets that break the alignment."],
      "内存地址未对齐", "内存地址不满足接口要求的对齐（例如异步拷贝要求 64 字节对齐）。", ["用 aclrtMalloc / aclrtMallocHost 申请（已对齐），不要传入破坏对齐的偏移。"])
usage("200004", "Resources used together belong to different devices / contexts (stream, event, memory).",
      ["Use streams, events and memory on the device that created them; set the device in every thread."],
      "资源不匹配（stream、context 等）", "一起使用的资源属于不同的设备 / context（stream、event、内存）。", ["在创建它们的设备上使用 stream、event 和内存；每个线程都先设置设备。"])
usage("200005", "A resource handle is invalid or already destroyed (use after destroy).",
      ["Check the object's lifetime in the caller; do not use streams/events/models after destroying them."],
      "资源句柄无效或已销毁", "资源句柄无效或已被销毁（销毁后仍在使用）。", ["检查调用方中对象的生命周期；销毁后不要再使用 stream/event/model。"])
usage("200006", "The feature is not supported by this product or CANN version.",
      ["Check the product support list; upgrade CANN / driver or disable the feature.", VERSIONS],
      "特性不支持", "当前产品或 CANN 版本不支持该特性。", ["查看产品支持列表；升级 CANN / 驱动或关闭该特性。", VERSIONS_ZH])
usage("200007", "The requested profiling modules / metrics are not supported on this product.",
      ["Drop the unsupported metrics from the profiling configuration."], "profiling 配置不支持", "请求的 profiling 模块 / 指标在该产品上不支持。", ["从 profiling 配置中去掉不支持的指标。"])
usage("300000", "A storage limit was exceeded (for example a buffer or queue sized by configuration).",
      ["Raise the configured limit or reduce the data; the plog line before names the limit."], "超出存储上限", "超出了某个存储上限（例如由配置决定大小的缓冲区或队列）。", ["调大配置的上限或减少数据量；前面的 plog 行写明了是哪个上限。"])
usage("361001", "An aclnn operator failed when it called the runtime (launching its kernel or allocating): the runtime error before it is the cause.",
      ["Look for the runtime error just before (memory, stream, device fault) and handle that.", COLLECT],
      "aclnn 算子调用 NPU Runtime 失败", "aclnn 算子在调用 Runtime（下发 kernel 或申请资源）时失败：它之前的 Runtime 报错才是原因。",
      ["在它之前找 Runtime 报错（内存、stream、设备故障）并处理。", COLLECT_ZH])
ACL["500000"] = internal("未知内部错误；到 plog 中找第一个错误", "ACL")
ACL["500001"] = internal("ACL 内部错误；到 plog 中找第一个错误", "ACL")
usage("500002", "The graph engine (GE) failed, typically while compiling or building an operator or graph; the E1xxxx / E2xxxx / E9xxxx message before it names the step.",
      ["Read the GE / FE error block printed before (E19999, E2xxxx...); for op compile failures check the op package and CANN version.", COLLECT],
      "图引擎（GE）内部错误，例如算子编译或构建失败", "图引擎（GE）失败，通常发生在算子或图的编译构建阶段；之前打印的 E1xxxx / E2xxxx / E9xxxx 报错写明了失败的步骤。",
      ["看之前打印的 GE / FE 报错块（E19999、E2xxxx 等）；算子编译失败时检查算子包和 CANN 版本。", COLLECT_ZH])
usage("500003", "The runtime failed underneath an ACL call; the runtime's own error (EE/EL code, rt reason) printed before it is the cause.",
      ["Look for the runtime error before (the rtXxx execution failed, reason=... line) and follow it.", COLLECT],
      "Runtime 内部错误", "ACL 调用下层的 Runtime 失败；之前打印的 Runtime 报错（EE/EL 错误码、rt 原因）才是原因。", ["在之前找 Runtime 报错（rtXxx execution failed, reason=... 行）并按它处理。", COLLECT_ZH])
usage("500004", "A driver call failed underneath ACL: device state, occupancy, or driver/CANN mismatch (see hw.drv-internal-error).",
      ["Check `npu-smi info` (device health, other processes) and the driver version against CANN.", COLLECT],
      "驱动内部错误", "ACL 下层的驱动调用失败：设备状态、被占用，或驱动与 CANN 不配套（见 hw.drv-internal-error）。", ["检查 `npu-smi info`（设备健康、其他进程）以及驱动版本与 CANN 是否配套。", COLLECT_ZH])
usage("500005", "Profiling failed internally (collection or data handling).",
      ["Disable profiling to confirm, then collect the profiling logs and plog.", COLLECT], "profiling 错误", "profiling 内部失败（采集或数据处理）。", ["先关闭 profiling 确认，再收集 profiling 日志和 plog。", COLLECT_ZH])
ACL["561000"] = internal("aclnn 内部错误", "the aclnn operator library")
for code, zm, c in [("561001", "aclnn 算子内部推导输出 shape 失败", "The operator could not infer its output shape from the inputs given (unsupported shape combination or an op bug)."),
                    ("561002", "aclnn 算子内部 tiling 失败", "Kernel tiling failed: the input sizes fall outside what the op's tiling supports (too large, zero-size, odd alignment) or the op has a bug."),
                    ("561101", "创建算子执行器失败", "Creating the operator executor failed (usually a host allocation or an earlier check failure)."),
                    ("561102", "算子执行器未传递", "The two-phase aclnn call sequence was broken: the executor from GetWorkspaceSize was not passed to the run call."),
                    ("561103", "aclnn 算子内部空指针", "A null pointer inside the aclnn operator."),
                    ("561104", "算子属性个数错误", "The attribute count does not match the operator's description."),
                    ("561105", "kernel 哈希键冲突", "Two kernels hashed to the same key in the operator cache."),
                    ("561106", "算子实现模式无效", "An invalid implementation mode was requested for the operator."),
                    ("561108", "加载算子信息 json 失败", "The operator's info json could not be loaded (missing or damaged op package file)."),
                    ("561109", "算子信息 json 缺少字段", "A field is missing in the operator info json (op package from another version)."),
                    ("561110", "算子信息 json 格式无效", "A format entry in the operator info json is invalid."),
                    ("561111", "算子信息 json 数据类型无效", "A dtype entry in the operator info json is invalid."),
                    ("561113", "加载算子 json 出错", "Loading the operator json failed."),
                    ("561114", "属性个数超过 json 声明", "More attributes were given than the json declares."),
                    ("561115", "属性个数少于 json 声明", "Fewer attributes were given than the json declares."),
                    ("561116", "算子 json 中输入超过 32 个", "The operator json declares more than 32 inputs."),
                    ("561117", "缺少算子 json 描述", "The operator has no json description."),
                    ("561118", "静态 kernel json 中 workspace 无效", "The workspace in the static kernel json is invalid."),
                    ("561119", "静态 kernel json 中 block dim 无效", "The block dim in the static kernel json is invalid.")]:
    ACL[code] = e(c, ["Read the aclnn / op plog lines before the code (they name the operator and inputs); reinstall the ops / kernels package matching the toolkit.", VERSIONS],
                  zm, {"561001": "算子无法根据给定输入推导输出 shape（不支持的 shape 组合或算子缺陷）。", "561002": "kernel tiling 失败：输入大小超出了算子 tiling 的支持范围（过大、零长、对齐异常）或算子有缺陷。",
                       "561101": "创建算子执行器失败（通常是 Host 内存申请失败或之前的校验失败）。", "561102": "aclnn 两段式调用被打断：GetWorkspaceSize 返回的执行器没有传给执行接口。",
                       "561103": "aclnn 算子内部出现空指针。", "561104": "属性个数与算子描述不一致。", "561105": "算子缓存中两个 kernel 的哈希键冲突。", "561106": "为算子请求了无效的实现模式。",
                       "561108": "无法加载算子信息 json（算子包文件缺失或损坏）。", "561109": "算子信息 json 缺少字段（算子包来自其他版本）。", "561110": "算子信息 json 中的格式项无效。",
                       "561111": "算子信息 json 中的数据类型项无效。", "561113": "加载算子 json 失败。", "561114": "给出的属性多于 json 声明的个数。", "561115": "给出的属性少于 json 声明的个数。",
                       "561116": "算子 json 声明了超过 32 个输入。", "561117": "算子没有 json 描述。", "561118": "静态 kernel json 中的 workspace 无效。", "561119": "静态 kernel json 中的 block dim 无效。"}[code],
                  ["看错误码之前的 aclnn / 算子 plog（写明了算子和输入）；重装与 toolkit 配套的 ops / kernels 包。", VERSIONS_ZH])
usage("561003", "No kernel binary matches the call: the ops / kernels package is missing, older than the caller, or lacks this dtype/shape combination.",
      ["Install the CANN ops / kernels package of the same version as the toolkit (and torch_npu's required CANN), then source set_env.sh.", VERSIONS],
      "找不到算子 kernel：算子二进制包缺失或比调用方旧", "没有匹配本次调用的 kernel 二进制：ops / kernels 包缺失、比调用方旧，或不包含该 dtype/shape 组合。",
      ["安装与 toolkit 同版本（并满足 torch_npu 要求）的 CANN ops / kernels 包，然后 source set_env.sh。", VERSIONS_ZH], conf="confirmed")
usage("561107", "ASCEND_OPP_PATH is not set: set_env.sh was not sourced in this shell.",
      ["Run `source /usr/local/Ascend/ascend-toolkit/set_env.sh` before starting the process."],
      "ASCEND_OPP_PATH 未设置", "ASCEND_OPP_PATH 未设置：当前 shell 没有 source set_env.sh。", ["启动进程前执行 `source /usr/local/Ascend/ascend-toolkit/set_env.sh`。"], conf="confirmed")
usage("561112", "The operator binary kernel package was not found / loaded.",
      ["Install the ops / kernels package matching the toolkit and source set_env.sh again."],
      "算子二进制 kernel 包未加载（需安装与 toolkit 配套的 ops/kernels 包）", "找不到 / 没有加载算子二进制 kernel 包。", ["安装与 toolkit 配套的 ops / kernels 包，并重新 source set_env.sh。"], conf="confirmed")

# ----------------------------------------------------------------------------------------- 107xxx runtime usage
def rt(code, causes, actions, zm, zc, za, conf="likely", documented=True):
    ACL[code] = e(causes, actions, zm, zc, za, documented=documented, confidence=conf)

SEQ = "Follow the call order the runtime expects (the ACL API reference of the named function lists it)."
SEQ_ZH = "按 Runtime 要求的顺序调用（所述函数的 ACL 接口文档列出了顺序）。"
rt("107000", "A runtime API got an invalid argument (rejected before reaching the device); the EE1003 / EE1011 line names function, parameter and expected value (rule rt.api-invalid-argument).",
   ["Read the EE10xx line for the parameter; fix the configuration value or the caller.", VERSIONS],
   "传给 Runtime 接口的参数非法", "Runtime 接口收到非法参数（在下发到设备之前被拒绝）；EE1003 / EE1011 报错写明了函数、参数和期望值（规则 rt.api-invalid-argument）。",
   ["看 EE10xx 报错中的参数；修正配置值或调用方。", VERSIONS_ZH], conf="confirmed")
rt("107001", "The device id is not one of the devices this process can see: outside ASCEND_RT_VISIBLE_DEVICES / the container's /dev/davinci* mounts, or the driver is not loaded.",
   ["Compare the id with `npu-smi info` and ASCEND_RT_VISIBLE_DEVICES (ids are logical, from 0); check `ls /dev/davinci*` in the container and that the driver is loaded."],
   "设备 ID 无效或对当前进程不可见（检查 ASCEND_RT_VISIBLE_DEVICES 和容器的 /dev/davinci* 挂载）", "设备 ID 不在本进程可见的设备中：超出 ASCEND_RT_VISIBLE_DEVICES / 容器挂载的 /dev/davinci* 范围，或驱动未加载。",
   ["把 ID 与 `npu-smi info` 和 ASCEND_RT_VISIBLE_DEVICES 对比（逻辑编号，从 0 开始）；在容器内检查 `ls /dev/davinci*`，确认驱动已加载。"], conf="confirmed")
for code, zm, c, zc in [
    ("107002", "当前线程没有 context：调用前需要设置设备（aclrtSetDevice）或 context", "The calling thread has no current context: it never called aclrtSetDevice / aclrtSetCurrentContext (rule rt.wrong-device-context).", "调用线程没有当前 context：它从未调用 aclrtSetDevice / aclrtSetCurrentContext（规则 rt.wrong-device-context）。"),
    ("107003", "stream 属于与当前不同的 context", "A stream created on one device / context is used from a thread whose current device is another one (rule rt.wrong-device-context; runtime FAQ).", "在某个设备 / context 上创建的 stream 被当前设备是另一个设备的线程使用（规则 rt.wrong-device-context；Runtime FAQ）。"),
    ("107004", "模型属于与当前不同的 context", "A model loaded in one context is used from another.", "在某个 context 中加载的模型在另一个 context 中被使用。")]:
    rt(code, c, ["Set the device in every thread that issues NPU work (aclrtSetDevice / `torch.npu.set_device`) and use objects only on the device that created them."],
       zm, zc, ["在每个下发 NPU 任务的线程中设置设备（aclrtSetDevice / `torch.npu.set_device`），对象只在创建它的设备上使用。"], conf="confirmed")
for code, zm, c, zc in [
    ("107005", "stream 未绑定到该模型", "The stream is not bound to the model it is used with (bind / unbind order).", "stream 没有绑定到与之一起使用的模型（绑定 / 解绑顺序问题）。"),
    ("107006", "event 时间戳无效（event 未记录或创建时未开启计时）", "Elapsed time was asked for events that were not recorded, or were created without timing.", "对未记录、或创建时未开启计时的 event 计算耗时。"),
    ("107007", "event 时间戳顺序颠倒", "The end event of an elapsed-time query was recorded before the start event.", "耗时查询中结束 event 的记录早于开始 event。"),
    ("107011", "stream 订阅错误（未订阅或重复订阅）", "A stream was subscribed twice or used for callbacks without a subscription.", "stream 被订阅了两次，或未订阅就用于回调。"),
    ("107012", "线程订阅错误", "A callback thread was subscribed wrongly (twice, or not at all).", "回调线程订阅错误（重复订阅或未订阅）。"),
    ("107013", "未设置 group", "A compute-group API was used before a group was set.", "设置 group 之前使用了计算 group 接口。"),
    ("107014", "请求的 group 未创建", "The requested compute group does not exist on this device.", "该设备上不存在请求的计算 group。"),
    ("107015", "该 stream 上没有注册回调", "A callback task was launched on a stream without a registered callback thread.", "在没有注册回调线程的 stream 上下发了回调任务。"),
    ("107021", "系统参数选项未设置", "A system parameter option was read before being set.", "在设置之前读取了系统参数选项。"),
    ("107033", "task group 状态错误", "A task-group API was called in the wrong state (begin/end pairs broken).", "在错误的状态下调用了 task group 接口（begin/end 不成对）。"),
    ("107034", "task group 被中断", "A task group was interrupted by another operation on the stream.", "task group 被该 stream 上的其他操作打断。"),
    ("107037", "模型仍在运行", "A model / captured graph was updated or destroyed while still executing.", "模型 / 捕获的图在执行中被更新或销毁。"),
    ("107039", "输入数组容量不足", "An output array passed to a query API is smaller than the data it must hold.", "传给查询接口的输出数组小于需要容纳的数据。")]:
    rt(code, c + " (rule rt.api-call-sequence)", [SEQ, VERSIONS], zm, zc + "（规则 rt.api-call-sequence）", [SEQ_ZH, VERSIONS_ZH])
rt("107008", "A memory address is not aligned as the API requires (rule rt.api-invalid-argument).",
   ["Use aclrtMalloc / aclrtMallocHost buffers and keep offsets aligned (async copies need 64-byte alignment)."],
   "内存地址不满足接口的对齐要求", "内存地址不满足接口要求的对齐（规则 rt.api-invalid-argument）。", ["使用 aclrtMalloc / aclrtMallocHost 的缓冲区并保持偏移对齐（异步拷贝需要 64 字节对齐）。"])
rt("107009", "The runtime could not open a file it needs or writes (dump / profiling output, kernel binary) - rule rt.output-file-failed.",
   ["Check the path exists and is readable / writable by the service user; check free disk."], "Runtime 无法打开文件", "Runtime 无法打开它需要读或写的文件（dump / profiling 输出、kernel 二进制）——规则 rt.output-file-failed。", ["检查路径存在且服务用户可读 / 可写；检查磁盘空间。"])
rt("107010", "The runtime could not write a file (dump / profiling output): path not writable or disk full (rule rt.output-file-failed).",
   ["Check the output path permissions and `df -h`."], "Runtime 无法写文件", "Runtime 无法写文件（dump / profiling 输出）：路径不可写或磁盘已满（规则 rt.output-file-failed）。", ["检查输出路径权限和 `df -h`。"])
rt("107016", "The memory type is invalid for the operation (e.g. host memory where device memory is required, or the wrong allocation flag).",
   ["Check the memory the caller passes (device vs host, aclrtMalloc flags)."], "内存类型对该操作无效", "内存类型对该操作无效（例如需要 Device 内存却传入 Host 内存，或申请标志错误）。", ["检查调用方传入的内存（Device 还是 Host、aclrtMalloc 的标志）。"])
rt("107017", "A handle (stream, event, context, model) is invalid: already destroyed, or of another type than expected (runtime EE1017 text).",
   ["Check the object's lifetime in the caller (no use after destroy, no double destroy)."], "句柄（stream、event、context 等）无效或已销毁", "句柄（stream、event、context、model）无效：已被销毁，或类型与期望不同（Runtime EE1017 的说明）。", ["检查调用方中对象的生命周期（销毁后不再使用、不重复销毁）。"], conf="confirmed")
rt("107018", "The memory allocation type / policy requested is invalid for this API or device.",
   ["Use a supported policy (ACL_MEM_MALLOC_HUGE_FIRST is the safe default)."], "内存申请类型无效", "请求的内存申请类型 / 策略对该接口或设备无效。", ["使用支持的策略（ACL_MEM_MALLOC_HUGE_FIRST 是稳妥的默认值）。"])
rt("107019", "A wait on the device (event / notify wait, CDQ batch) timed out: the side that should signal never did (rule rt.event-wait-timeout).",
   ["Find the failure on the signalling side (other streams, other ranks) first.", COLLECT],
   "设备上的等待超时", "设备上的等待（event / notify 等待、CDQ 批次）超时：本该发信号的一方一直没有发（规则 rt.event-wait-timeout）。", ["先找发信号一方（其他 stream、其他 rank）的失败。", COLLECT_ZH])
rt("107020", "A device task ran past its timeout (task timeout): a kernel or collective that hangs, or work longer than the configured op timeout.",
   ["Find the stuck task in the plog (fault kernel / HCCL lines) and the other ranks' logs; raise the op / HCCL timeout only if the work is legitimately long.", COLLECT],
   "设备上的任务超时", "设备任务超过了超时时间（task timeout）：算子或集合通信挂住，或工作量超过了配置的算子超时。",
   ["在 plog（fault kernel / HCCL 行）和其他 rank 的日志中找到卡住的任务；只有工作量确实很大时才调大算子 / HCCL 超时。", COLLECT_ZH])
rt("107022", "Device tasks were aborted on purpose (FORCE STOP): torch_npu / the runtime stops the device after another error or on request (rule hw.device-task-abort).",
   ["Find the first real error on this and the other ranks; a supervisor may have requested the stop."],
   "设备任务被中止（FORCE STOP）；通常是其他 rank 出错或主动停止的连带结果", "设备任务被主动中止（FORCE STOP）：torch_npu / Runtime 在其他错误之后或应请求停止设备（规则 hw.device-task-abort）。", ["在本 rank 和其他 rank 上找第一个真正的错误；也可能是监管程序请求了停止。"], conf="confirmed")
rt("107023", "The stream was aborted (stop-on-failure after an earlier error, or an abort request) - rule rt.stream-aborted.",
   ["Find the first error before the abort."], "stream 被中止", "stream 被中止（之前的错误触发遇错即停，或有中止请求）——规则 rt.stream-aborted。", ["在中止之前找第一个错误。"], conf="confirmed")
rt("107035", "A device-task abort stopped before its post-processing finished (abort interrupted; device likely unhealthy).",
   ["Check the device health and the error that started the abort.", COLLECT], "设备任务中止在后处理前停止", "设备任务中止在后处理完成前就停止了（中止被打断；设备很可能不健康）。", ["检查设备健康状态以及触发中止的错误。", COLLECT_ZH])
for code, zm, c, zc in [
    ("107024", "图捕获依赖失败", "Capture hit a dependency on work that was not captured (event from an uncaptured stream).", "捕获遇到了对未捕获工作的依赖（来自未捕获 stream 的 event）。"),
    ("107025", "捕获无效：有 stream 没有汇合回来", "A stream forked during capture was not joined back to the origin stream before capture end.", "捕获期间分叉出去的 stream 在捕获结束前没有汇合回原始 stream。"),
    ("107026", "模型正在被捕获", "An operation not allowed on a model under capture.", "对正在捕获的模型执行了不允许的操作。"),
    ("107027", "stream 正在被捕获", "A stream under capture was synchronised or queried (not allowed during capture).", "对正在捕获的 stream 做了同步或查询（捕获期间不允许）。"),
    ("107028", "event 正在被捕获", "An event recorded in a capture was queried or synchronised from outside.", "在捕获中记录的 event 被外部查询或同步。"),
    ("107029", "stream 不处于捕获状态", "An end-capture / capture API was called on a stream that is not capturing.", "在没有处于捕获状态的 stream 上调用了结束捕获 / 捕获接口。"),
    ("107030", "stream 被捕获时不允许该操作", "The capture mode does not allow this call (sync / blocking call in global mode).", "当前捕获模式不允许该调用（全局模式下的同步 / 阻塞调用）。"),
    ("107031", "捕获遇到了对默认 stream 的非法隐式依赖", "Work on the default stream created an implicit dependency during capture.", "捕获期间默认 stream 上的工作产生了隐式依赖。"),
    ("107032", "相互依赖的 stream 不能同时开始捕获", "Two interdependent streams began capture together.", "两个相互依赖的 stream 同时开始了捕获。"),
    ("107036", "捕获并非在该 stream 上开始", "Capture was ended on a stream where it was not started.", "在没有开始捕获的 stream 上结束了捕获。"),
    ("107038", "捕获的开始和结束不在同一线程", "Capture was begun and ended on different threads.", "捕获的开始和结束在不同线程上。"),
    ("107040", "更新捕获的模型失败", "Updating a captured graph failed (graph state or unsupported update).", "更新捕获的图失败（图状态不对或不支持该更新）。"),
    ("107041", "在捕获中的 stream 上做了阻塞调用", "A blocking call (synchronous memcpy / memset) was made while capturing in a non-relaxed mode (runtime FAQ on ACL graph capture).", "在非 relaxed 模式的捕获中做了阻塞调用（同步 memcpy / memset）（Runtime FAQ 中 ACL Graph 捕获章节）。"),
    ("107045", "子图正在捕获", "An operation conflicted with a sub-graph that is being captured.", "操作与正在捕获的子图冲突。")]:
    rt(code, c + " (rule rt.aclgraph-capture-violation)",
       ["Run eagerly (e.g. vLLM `--enforce-eager`) to confirm; upgrade torch_npu / vLLM-Ascend with their CANN; in own code keep syncs and pageable copies outside capture."],
       zm, zc + "（规则 rt.aclgraph-capture-violation）", ["用 eager 方式运行（如 vLLM `--enforce-eager`）确认；把 torch_npu / vLLM-Ascend 与配套 CANN 一起升级；自己的代码把同步和非锁页拷贝放到捕获之外。"],
       conf="confirmed" if code in ("107027", "107041") else "likely")
for code, zm, c, zc in [
    ("107042", "找不到符号", "A global symbol of a kernel binary was not found (binary from another build / version).", "在 kernel 二进制中找不到某个全局符号（二进制来自其他构建 / 版本）。"),
    ("107043", "设备符号无效", "The device symbol does not belong to a loaded kernel binary.", "设备符号不属于已加载的 kernel 二进制。"),
    ("107044", "设备函数无效", "The device function handle is invalid (binary unloaded or never registered).", "设备函数句柄无效（二进制已卸载或从未注册）。")]:
    rt(code, c + " (rule rt.kernel-binary-invalid)", ["Rebuild / reinstall the kernel package or custom op for this CANN and chip."], zm, zc + "（规则 rt.kernel-binary-invalid）", ["针对当前 CANN 和芯片重新编译 / 重装 kernel 包或自定义算子。"])

# ----------------------------------------------------------------------------------------- 207xxx resources / environment
rt("207000", "The feature is not supported by this chip, driver or firmware, or the caller expects a newer CANN (rules rt.feature-not-supported, rt.driver-too-old).",
   ["Check the API's product support and the driver version required by your CANN; upgrade the older side or disable the feature.", VERSIONS],
   "该特性不被当前设备、驱动或固件支持（常见于驱动/固件/CANN 版本不配套）", "当前芯片、驱动或固件不支持该特性，或调用方期望更新的 CANN（规则 rt.feature-not-supported、rt.driver-too-old）。",
   ["查看接口的产品支持情况和所用 CANN 要求的驱动版本；升级较旧的一方或关闭该特性。", VERSIONS_ZH], conf="confirmed")
rt("207001", "Device memory allocation failed: the NPU's HBM is used up (model, KV cache, activations, other processes) or fragmented.",
   ["Check `npu-smi info` (HBM used, other processes); lower the memory budget (vLLM `--gpu-memory-utilization`, `--max-model-len`, batch size).", "Use PYTORCH_NPU_ALLOC_CONF=expandable_segments:True against fragmentation (torch_npu 2.1+)."],
   "Device 内存申请失败：NPU 显存不足", "Device 内存申请失败：NPU 的 HBM 已被用完（模型、KV Cache、激活、其他进程）或碎片化。",
   ["查看 `npu-smi info`（HBM 占用、其他进程）；降低显存预算（vLLM `--gpu-memory-utilization`、`--max-model-len`、batch 大小）。", "碎片化时设置 PYTORCH_NPU_ALLOC_CONF=expandable_segments:True（torch_npu 2.1 及以上）。"], conf="confirmed")
rt("207002", "Freeing device memory failed: the pointer was not allocated by the runtime, is freed twice, or the device is already faulty.",
   ["Check for double free / foreign pointers in the caller; if a device error came first, handle that."], "释放 Device 内存失败", "释放 Device 内存失败：指针不是 Runtime 申请的、被重复释放，或设备已经故障。", ["检查调用方是否重复释放 / 传入了非 Runtime 的指针；如果之前有设备错误，先处理它。"])
for code, zm, unit, uzh in [("207003", "AI Core 计算溢出", "AI Core", "AI Core"), ("207016", "AI Vector Core 计算溢出", "vector core", "Vector Core"), ("207017", "计算溢出", "AI CPU or SDMA", "AI CPU 或 SDMA")]:
    rt(code, f"The {unit} detected a floating-point overflow (INF / NaN) with overflow detection on (rule rt.compute-overflow).",
       ["Find the operator (dump or eager bisect) and compute it in bf16 / fp32 or scale its inputs; check inputs for NaN / INF."],
       zm, f"{uzh} 在开启溢出检测时检测到浮点溢出（INF / NaN）（规则 rt.compute-overflow）。", ["定位算子（dump 或 eager 二分），改用 bf16 / fp32 计算或缩放输入；检查输入中是否有 NaN / INF。"])
rt("207004", "The process sees no usable NPU: no /dev/davinci* in the container, ASCEND_RT_VISIBLE_DEVICES empty / wrong, or the driver not loaded.",
   ["Check `npu-smi info` on the host and `ls /dev/davinci*` inside the container; mount the devices and set ASCEND_RT_VISIBLE_DEVICES correctly."],
   "没有可供当前进程使用的 NPU 设备", "进程看不到可用的 NPU：容器内没有 /dev/davinci*、ASCEND_RT_VISIBLE_DEVICES 为空或错误，或驱动未加载。",
   ["在宿主机查看 `npu-smi info`，在容器内查看 `ls /dev/davinci*`；挂载设备并正确设置 ASCEND_RT_VISIBLE_DEVICES。"], conf="confirmed")
rt("207005", "The driver could not allocate a hardware resource; in practice the stream SQ/CQ pool (retCode 0x7020023) - rule rt.stream-resource-exhausted (runtime FAQ EE1023).",
   ["See rt.stream-resource-exhausted: other processes on the NPU, too many captured graphs / streams."],
   "Runtime 无法申请到资源", "驱动无法分配硬件资源；实际多为 Stream 的 SQ/CQ 池（retCode 0x7020023）——规则 rt.stream-resource-exhausted（Runtime FAQ EE1023）。",
   ["见 rt.stream-resource-exhausted：同一 NPU 上的其他进程、过多的捕获图 / stream。"], conf="confirmed")
rt("207006", "The driver refused the operation: the device is bound to another container / process or the user lacks access to the device files (rule rt.device-no-permission).",
   ["Check who holds the device (`npu-smi info`, leftover containers) and the device-file mounts / user group."], "该设备操作无权限", "驱动拒绝了该操作：设备已绑定到其他容器 / 进程，或用户没有设备文件的访问权限（规则 rt.device-no-permission）。", ["检查谁占用着设备（`npu-smi info`、残留容器）以及设备文件挂载 / 用户组。"])
rt("207007", "The device's event id pool is exhausted (events leaked or many processes) - rule rt.event-resource-exhausted.", ["Pair event create/destroy; check other processes on the NPU."],
   "没有剩余的 event 资源", "设备的 event ID 池已耗尽（event 泄漏或进程过多）——规则 rt.event-resource-exhausted。", ["event 的创建与销毁成对调用；检查同一 NPU 上的其他进程。"], conf="confirmed")
rt("207008", "No stream resource: the SQ/CQ pool is empty (rule rt.stream-resource-exhausted), or, for async copy APIs, the graph's copy queue is full (retCode 0x7110019, rule rt.async-copy-queue-full).",
   ["Tell the two apart by the inner code / EE1023 reason; capture fewer graph sizes, destroy unused streams, or split large batched copies."],
   "没有剩余的 stream 资源", "没有 stream 资源：SQ/CQ 池已空（规则 rt.stream-resource-exhausted），或者对异步拷贝接口而言，图中的拷贝队列已满（retCode 0x7110019，规则 rt.async-copy-queue-full）。",
   ["用内部错误码 / EE1023 原因区分两者；减少捕获档位、销毁不用的 stream，或拆分大批量拷贝。"], conf="confirmed")
rt("207009", "The device's notify pool is exhausted (graphs not destroyed, too many concurrent graphs, leaked notifies) - rule rt.notify-resource-exhausted.",
   ["Destroy finished graphs, run fewer graphs at once, pair notify create/destroy."], "没有剩余的 notify 资源", "设备的 notify 池已耗尽（图未销毁、并发图过多、notify 泄漏）——规则 rt.notify-resource-exhausted。", ["销毁执行完的图，减少同时执行的图，notify 创建与销毁成对调用。"], conf="confirmed")
rt("207010", "The device's model id pool is exhausted (loaded models / captured graphs not released) - rule rt.model-resource-exhausted.",
   ["Unload models and destroy captured graphs no longer used."], "没有剩余的模型资源", "设备的模型 ID 池已耗尽（加载的模型 / 捕获的图没有释放）——规则 rt.model-resource-exhausted。", ["卸载不再使用的模型，销毁不再使用的捕获图。"])
rt("207011", "The CDQ (command data queue) resources reached their limit.", ["Release CDQ queues no longer used; this API family is not used by the common serving stacks."],
   "没有剩余的 CDQ 资源", "CDQ（命令数据队列）资源达到上限。", ["释放不再使用的 CDQ 队列；常见的推理服务框架不使用这组接口。"])
rt("207012", "A driver-side limit was exceeded (count or size of a queue / resource).", ["Reduce the number or size requested; the plog line before names the limit.", COLLECT],
   "超出 Runtime 限制", "超出了驱动侧的某个限制（队列 / 资源的数量或大小）。", ["减少请求的数量或大小；前面的 plog 行写明了是哪个限制。", COLLECT_ZH])
rt("207013", "A queue read found the queue empty (tensor data queue APIs; usually a status, not a fault).", ["Treat as a status in the caller (retry / wait) unless the producer died."],
   "队列为空", "读取队列时发现为空（张量数据队列接口；通常是状态而不是故障）。", ["调用方应把它当作状态处理（重试 / 等待），除非生产者已经退出。"])
rt("207014", "A queue write found the queue full (consumer too slow or stopped).", ["Check the consumer of the queue; enlarge the queue or slow the producer."],
   "队列已满", "写队列时发现已满（消费者太慢或已停止）。", ["检查队列的消费者；调大队列或降低生产速度。"])
rt("207015", "The driver / runtime was initialised twice in the same process.", [SEQ], "重复初始化", "驱动 / Runtime 在同一进程中被初始化了两次。", [SEQ_ZH])
rt("207018", "The device ran out of memory at the driver level (device OOM).",
   ["Same as 207001: check HBM usage and other processes, lower the memory budget."], "设备内存耗尽（device OOM）", "设备在驱动层面内存耗尽（device OOM）。", ["同 207001：检查 HBM 占用和其他进程，降低显存预算。"], conf="confirmed")
rt("207019", "The installed driver cannot update this operator in place; the runtime asks for a driver upgrade (rule rt.driver-too-old).",
   ["Upgrade the NPU driver / firmware to the version the CANN release notes require."], "不支持更新该算子", "已安装的驱动不支持原地更新该算子；Runtime 要求升级驱动（规则 rt.driver-too-old）。", ["把 NPU 驱动 / 固件升级到 CANN 版本说明要求的版本。"], conf="confirmed")
rt("207020", "A driver call timed out: the device did not answer in time (hung, resetting, or overloaded) - rule hw.device-connection-lost.",
   ["Check device health (`npu-smi info`, `dmesg`) and reset the device if it is unresponsive."], "驱动调用超时", "驱动调用超时：设备没有按时响应（挂住、复位中或过载）——规则 hw.device-connection-lost。", ["检查设备健康（`npu-smi info`、`dmesg`），无响应时复位设备。"])
rt("207021", "The link type between the devices (PCIe / HCCS / ...) does not support the requested operation (e.g. P2P on this topology).",
   ["Check the topology (`npu-smi info -t topo`) and use a supported path (copy through the host)."], "链路类型不支持", "设备之间的链路类型（PCIe / HCCS 等）不支持请求的操作（例如该拓扑下的 P2P）。", ["检查拓扑（`npu-smi info -t topo`），改用支持的路径（经 Host 中转拷贝）。"])

# ----------------------------------------------------------------------------------------- 507xxx device / internal
ACL["507000"] = internal("Runtime 内部错误")
rt("507001", "The task scheduler (TS firmware) reported a task failure without a more specific class; the device-error lines around it (task exception, sdma error, core error) say what failed.",
   ["Read the device-error lines next to it; check the other ranks.", COLLECT], "任务调度器（TS 固件）内部错误",
   "任务调度器（TS 固件）上报了任务失败但没有更具体的分类；旁边的设备错误行（task exception、sdma error、core error）说明了失败内容。", ["看旁边的设备错误行；检查其他 rank。", COLLECT_ZH], documented=False)
rt("507002", "A stream's task queue is full: many tasks submitted without synchronising, or the device stopped consuming the stream (rule rt.stream-task-queue-full).",
   ["If the device is stuck fix that first; otherwise synchronise periodically or use more streams."], "stream 的任务队列已满", "stream 的任务队列已满：提交了大量任务却不同步，或设备停止消费该 stream（规则 rt.stream-task-queue-full）。", ["设备卡住时先解决卡住的问题；否则定期同步或使用更多 stream。"], conf="confirmed")
for code, zm, c, zc in [("507003", "stream 的任务队列为空", "The stream has no tasks (a status of query APIs).", "stream 上没有任务（查询接口返回的状态）。"),
                        ("507004", "stream 尚未完成", "The stream still has unfinished work (a status of aclrtQueryStream).", "stream 上还有未完成的工作（aclrtQueryStream 返回的状态）。"),
                        ("507006", "event 尚未完成", "The event has not completed yet (a status of aclrtQueryEvent).", "event 还没有完成（aclrtQueryEvent 返回的状态）。")]:
    rt(code, c, ["Treat it as a status in the caller (poll again or synchronise); it is not a failure by itself."], zm, zc, ["调用方把它当作状态处理（再次查询或同步）；它本身不是故障。"])
rt("507005", "A model reading from a device data queue found no more data (end of epoch / dataset) - rule rt.end-of-sequence.",
   ["Normal at the end of data; otherwise check the data producer."], "已到达序列末尾", "从设备数据队列读取的模型已没有更多数据（epoch / 数据集结束）——规则 rt.end-of-sequence。", ["数据结束时属于正常；否则检查数据生产方。"])
rt("507007", "Destroying a context failed: it still owns streams / events / memory, or tasks are still running in it.",
   ["Destroy streams and events and free memory of the context first; synchronise before destroying."], "释放 context 失败", "销毁 context 失败：它仍持有 stream / event / 内存，或其中仍有任务在运行。", ["先销毁该 context 的 stream、event 并释放内存；销毁前先同步。"])
rt("507008", "The runtime does not recognise the chip (toolkit for another product or too old) - rule rt.soc-version-mismatch.",
   ["Install a CANN that supports this chip; use the container image for this product."], "SoC 版本不匹配", "Runtime 不识别当前芯片（toolkit 属于其他产品或版本太旧）——规则 rt.soc-version-mismatch。", ["安装支持该芯片的 CANN；使用该产品对应的容器镜像。"])
rt("507009", "The task type is not supported on this chip / firmware.", ["Check product support; upgrade driver / firmware to match CANN."], "任务类型不支持", "当前芯片 / 固件不支持该任务类型。", ["查看产品支持情况；把驱动 / 固件升级到与 CANN 配套。"])
rt("507010", "The host lost the device task scheduler's heartbeat: the device hung, rebooted or fell off the bus (rule hw.lost-heartbeat).",
   ["Check `npu-smi info` and `dmesg`, export `msnpureport -f`, reset or replace the device."], "任务调度器心跳丢失：NPU 无响应（硬件、固件或驱动故障）", "Host 丢失了设备任务调度器的心跳：设备挂死、重启或掉出总线（规则 hw.lost-heartbeat）。", ["检查 `npu-smi info` 和 `dmesg`，导出 `msnpureport -f`，复位或更换设备。"], conf="confirmed")
rt("507011", "A task inside an executed model / ACL graph failed; the device-error lines before it name the task (rule rt.model-execute-failed).",
   ["Find the first device error before it; rerun eager to separate graph replay from operator errors."], "模型执行失败", "执行中的模型 / ACL Graph 内部有任务失败；之前的设备错误行写明了是哪个任务（规则 rt.model-execute-failed）。", ["在它之前找第一个设备错误；用 eager 重跑以区分图重放问题和算子问题。"], conf="confirmed")
rt("507012", "The device did not send a completion report in time (device hung or link to it broken) - rule hw.device-connection-lost.",
   ["Check device health and reset it if unresponsive."], "等待上报超时", "设备没有按时发送完成上报（设备挂住或与它的链路中断）——规则 hw.device-connection-lost。", ["检查设备健康状态，无响应时复位。"])
rt("507013", "A DMA (SDMA) copy task failed: bad or freed address, unpinned host memory, overflow in a reduce copy, or a peer process that exited (rule rt.sdma-copy-error; SMMU variant op.sdma-smmu-terminate).",
   ["Read the sdma error line (cqeStatus) and the failed copy's size / type; check the other ranks first."], "系统 DMA 错误", "DMA（SDMA）拷贝任务失败：地址错误或已释放、Host 内存未锁页、归约拷贝溢出，或对端进程已退出（规则 rt.sdma-copy-error；SMMU 情况见 op.sdma-smmu-terminate）。", ["看 sdma error 行（cqeStatus）以及失败拷贝的大小 / 类型；先检查其他 rank。"], conf="confirmed")
for code, zm, unit, uzh in [("507014", "AI Core 任务超时", "AI Core", "AI Core"), ("507034", "Vector Core 任务超时", "vector core", "Vector Core")]:
    rt(code, f"A {unit} kernel ran past the device's execution timeout: a kernel that hangs (often waiting for a peer in a fused communication op) or is too long.",
       ["Find the kernel (fault kernel_name) and check the other ranks; raise the op execution timeout only for legitimately long kernels."],
       zm, f"{uzh} 上的 kernel 超过了设备的执行超时：kernel 挂住（常见于融合通信算子等待对端）或执行时间过长。", ["找到 kernel（fault kernel_name）并检查其他 rank；只有 kernel 确实耗时很长时才调大算子执行超时。"])
for code, zm, unit, uzh in [("507015", "AI Core 任务异常（算子输入/kernel 问题，或硬件故障）", "AI Core", "AI Core"), ("507035", "Vector Core（AIV）任务异常（常见于 kernel 越界或非对齐访问）", "vector core", "Vector Core")]:
    rt(code, f"A {unit} kernel raised an exception: out-of-range or misaligned memory access, bad input (shapes, indices) or a kernel bug; rarely a hardware fault (then an ECC / RAS line appears).",
       ["Read `errorStr` and `fault kernel_name` next to it; check the op's inputs; an ECC / RAS line means hardware (hw.onchip-multi-bit-ecc / hw.ras-fault-event)."],
       zm, f"{uzh} 上的 kernel 发生异常：越界或非对齐访存、输入异常（shape、索引）或 kernel 缺陷；少数是硬件故障（此时会出现 ECC / RAS 行）。", ["看旁边的 `errorStr` 和 `fault kernel_name`；检查算子输入；出现 ECC / RAS 行则是硬件问题（hw.onchip-multi-bit-ecc / hw.ras-fault-event）。"], conf="confirmed")
for code, zm in [("507016", "AI Core trap 异常"), ("507036", "Vector Core trap 异常"), ("507042", "AI Core trap：读越界"), ("507043", "AI Core trap：写越界"),
                 ("507044", "Vector Core trap：读越界"), ("507045", "Vector Core trap：写越界"), ("507050", "FFTS+ trap 异常")]:
    rt(code, "A kernel executed a trap: an assert / trap in the kernel or the hardware bounds check on global memory fired; the inputs are outside what the op supports or the kernel has a bug (rule rt.kernel-trap).",
       ["Find the kernel (fault kernel_name) and check its inputs; debug custom kernels with their checks on, report built-in ones with shapes."],
       zm, "kernel 执行了 trap：kernel 中的 assert / trap 或全局内存的硬件越界检查被触发；输入超出了算子支持范围或 kernel 有缺陷（规则 rt.kernel-trap）。", ["找到 kernel（fault kernel_name）并检查输入；自定义 kernel 打开检查调试，内置算子带上 shape 上报。"])
rt("507017", "An AI CPU task did not finish in time: device memory shortage, AI CPU overloaded, or an AI CPU op looping on bad input (rule rt.aicpu-timeout).",
   ["Check HBM headroom at the time; find the AI CPU kernel and its inputs."], "AI CPU 任务超时", "AI CPU 任务未按时完成：Device 内存不足、AI CPU 过载，或 AI CPU 算子在异常输入上死循环（规则 rt.aicpu-timeout）。", ["检查当时的 HBM 余量；找到 AI CPU kernel 及其输入。"], conf="confirmed")
rt("507018", "An AI CPU operator raised an exception (bad input, unsupported case, or an op bug); the AI CPU error line names the kernel and errcode.",
   ["Read the AI CPU error line (op name, errcode) and check that op's inputs; upgrade CANN if it is a built-in op bug."], "AI CPU 任务异常", "AI CPU 算子发生异常（输入异常、不支持的情况或算子缺陷）；AI CPU 报错行写明了 kernel 和 errcode。", ["看 AI CPU 报错行（算子名、errcode）并检查该算子的输入；内置算子缺陷则升级 CANN。"], conf="confirmed")
for code, zm in [("507019", "AI CPU 数据 dump 响应错误"), ("507020", "AI CPU 模型操作响应错误"), ("507902", "AI CPU 信息加载响应错误")]:
    rt(code, "The device AI CPU scheduler rejected a control request (dump config / model / info load): device-side AI CPU packages not matching the toolkit, or a device-side resource failure (rule rt.aicpu-control-error).",
       ["Reinstall the aicpu / kernels packages matching the toolkit; collect device logs (AI CPU log)."], zm, "设备 AI CPU 调度器拒绝了控制请求（dump 配置 / 模型 / 信息加载）：Device 侧 AI CPU 包与 toolkit 不配套，或 Device 侧资源故障（规则 rt.aicpu-control-error）。", ["重装与 toolkit 配套的 aicpu / kernels 包；收集 Device 日志（AI CPU 日志）。"], conf="hypothesis")
rt("507021", "Profiling on the device failed or conflicts with another session (rule rt.profiling-conflict).", ["Run one profiling session per device; reduce what is collected."], "profiling 错误", "设备上的 profiling 失败或与其他会话冲突（规则 rt.profiling-conflict）。", ["每个设备只运行一个采集会话；减少采集内容。"])
rt("507022", "Inter-process sharing failed (IPC memory / notify): PID trust list, alignment, P2P reachability or driver support (rule rt.ipc-memory-share-failed).",
   ["Set the importer's PID on the exporter, export page-aligned memory, check peer access."], "进程间通信（IPC）错误", "进程间共享失败（IPC 内存 / notify）：PID 白名单、对齐、P2P 可达性或驱动支持问题（规则 rt.ipc-memory-share-failed）。", ["在导出方设置导入方 PID、导出页对齐的内存、检查 peer 访问。"], conf="hypothesis")
rt("507023", "The model was aborted on request (aclmdlRIAbort / an abort of its streams) - rule rt.stream-aborted.", ["Find who requested the abort and the error before it."], "模型被中止", "模型应请求被中止（aclmdlRIAbort / 其 stream 被中止）——规则 rt.stream-aborted。", ["找出是谁请求了中止，以及之前的错误。"])
for code, zm in [("507024", "kernel 正在注销"), ("507027", "kernel 查找失败"), ("507028", "kernel 重复注册"), ("507032", "程序注册配额已用完")]:
    rt(code, "The kernel binary could not be used: not registered, registered twice, being unloaded, or too many programs registered (rule rt.kernel-binary-invalid).",
       ["Reinstall the kernels package matching the toolkit; rebuild custom ops for this chip; avoid loading a custom op library twice."], zm,
       "kernel 二进制无法使用：未注册、重复注册、正在卸载，或注册的程序过多（规则 rt.kernel-binary-invalid）。", ["重装与 toolkit 配套的 kernels 包；针对当前芯片重新编译自定义算子；避免重复加载自定义算子库。"])
for code, zm in [("507025", "ring buffer 未初始化"), ("507026", "ring buffer 没有数据"), ("507029", "debug 注册失败"), ("507030", "debug 注销失败"),
                 ("507031", "label 不在当前 context 中"), ("507037", "CDQ 批次分配异常"), ("507038", "无法切换 die 模式"), ("507039", "单 die 模式下不能设置 die"),
                 ("507040", "die ID 无效"), ("507041", "die 模式未设置"), ("507900", "AI CPU 内部错误"), ("507905", "snapshot 加锁超时"), ("507906", "snapshot 加锁失败"),
                 ("507907", "snapshot 解锁失败"), ("507908", "snapshot 备份失败"), ("507909", "snapshot 恢复失败"), ("507912", "snapshot 回调执行失败"), ("507913", "注册 snapshot 回调失败")]:
    ACL[code] = internal(zm)
rt("507033", "aclrtSetDevice could not build the device context: device memory for runtime pools not available (EL0004), device busy / absent, or a driver error before it (rule rt.device-open-failed).",
   ["Read the error just before (EL0004 / EL0005 / EL0001 / drv code); free or change the device."], "设置（打开）设备失败；需结合 plog 中的驱动错误", "aclrtSetDevice 无法建立设备上下文：Runtime 内存池所需显存不可用（EL0004）、设备忙 / 不存在，或之前有驱动错误（规则 rt.device-open-failed）。", ["看紧挨着的前一个错误（EL0004 / EL0005 / EL0001 / 驱动码）；释放设备或换一个设备。"], conf="confirmed")
rt("507046", "A stream synchronisation exceeded its timeout: a task on the device is stuck or the timeout is shorter than the work (rule rt.stream-sync-timeout).",
   ["Find the first device-side error on every rank; raise the timeout only for legitimately long work."], "stream 同步超时", "stream 同步超过了超时时间：设备上有任务卡住，或超时比工作量短（规则 rt.stream-sync-timeout）。", ["在每个 rank 上找第一个 Device 侧错误；只有工作确实耗时才调大超时。"], conf="confirmed")
rt("507047", "An event synchronisation / wait exceeded its timeout: the recording side never recorded (rule rt.event-wait-timeout).",
   ["Find the failure on the recording side (other streams / ranks)."], "event 同步超时", "event 同步 / 等待超时：记录方一直没有记录（规则 rt.event-wait-timeout）。", ["找记录方（其他 stream / rank）的失败。"])
for code, zm in [("507048", "FFTS+ 任务超时（融合任务，常见于 HCCL）"), ("507049", "FFTS+ 任务异常")]:
    rt(code, "A fused FFTS+ task failed or timed out; its sub-task (core error, notify wait, sdma) is named by the device-error lines (rule rt.fftsplus-task-failed).",
       ["Read the fftsplus device-error lines; a communication wait points at another rank."], zm, "FFTS+ 融合任务失败或超时；其子任务（core 错误、notify 等待、sdma）由设备错误行给出（规则 rt.fftsplus-task-failed）。", ["看 fftsplus 相关的设备错误行；通信等待指向其他 rank。"])
rt("507051", "A message to the device over HDC could not be sent: the host-device channel is broken (rule hw.device-connection-lost).",
   ["Check the device (`npu-smi info`, `dmesg`); reset if it is gone."], "通过 HDC（Host-Device 通道）发送消息失败", "通过 HDC 向设备发送消息失败：Host-Device 通道已断开（规则 hw.device-connection-lost）。", ["检查设备（`npu-smi info`、`dmesg`）；设备消失时复位。"])
rt("507052", "A data copy between host and device failed in the driver (bad address / size, or device fault) - rule rt.sdma-copy-error.", ["Check the copy's buffers and the device health."], "数据拷贝失败", "驱动中 Host 与 Device 之间的数据拷贝失败（地址 / 大小错误，或设备故障）——规则 rt.sdma-copy-error。", ["检查拷贝的缓冲区和设备健康状态。"])
rt("507053", "Uncorrectable device memory error (UCE) / poisoned data on the NPU (rule hw.device-mem-uce).", ["Take the device out of service, check ECC / health, replace if it repeats."], "NPU 上检测到不可纠正的 Device 内存错误（UCE）", "NPU 上的不可纠正内存错误（UCE）/ 中毒数据（规则 hw.device-mem-uce）。", ["把设备下线，检查 ECC / 健康状态，反复出现则换卡。"], conf="confirmed")
rt("507054", "HBM multi-bit ECC error: a device memory hardware fault (rule hw.hbm-multi-bit-ecc).", ["Isolate the device, confirm with `npu-smi info -t ecc`, replace the card if it repeats."], "HBM 多比特 ECC 错误：Device 内存硬件故障", "HBM 多比特 ECC 错误：Device 内存硬件故障（规则 hw.hbm-multi-bit-ecc）。", ["隔离设备，用 `npu-smi info -t ecc` 确认，反复出现则换卡。"], conf="confirmed")
rt("507055", "A device memory error is suspected but not confirmed (rule hw.suspect-device-mem).", ["Move the job, run the HBM check (`ascend-dmi --dg`), service the card if it repeats."], "疑似 Device 内存错误", "怀疑存在 Device 内存错误但未确认（规则 hw.suspect-device-mem）。", ["迁移作业，做 HBM 检查（`ascend-dmi --dg`），复现则报修。"], conf="confirmed")
rt("507056", "A device link (HCCS / UB / RoCE) broke a transfer (rule hw.device-link-error).", ["Check links with hccn_tool and npu-smi health; enable HCCL op retry for long jobs."], "设备链路错误（HCCS/RoCE/UB 链路）导致传输中断", "设备链路（HCCS / UB / RoCE）中断了传输（规则 hw.device-link-error）。", ["用 hccn_tool 和 npu-smi health 检查链路；长训作业开启 HCCL 算子重执行。"], conf="confirmed")
rt("507057", "A fault on the remote device (or the link to it) is suspected (rule hw.suspect-remote-error).", ["Look at the peer rank's logs and health first."], "疑似远端设备错误", "怀疑远端设备（或到它的链路）有故障（规则 hw.suspect-remote-error）。", ["先看对端 rank 的日志和健康状态。"], conf="confirmed")
rt("507899", "A driver call failed; the drvRetCode in the plog says why (device occupied, driver/firmware mismatch, bad device state) - rule hw.drv-internal-error.",
   ["Check `npu-smi info` (processes, health), driver vs CANN versions, `dmesg`."], "驱动内部错误；其下的驱动调用失败（驱动/固件状态、设备被占用或不存在）", "驱动调用失败；plog 中的 drvRetCode 说明原因（设备被占用、驱动/固件不配套、设备状态异常）——规则 hw.drv-internal-error。", ["检查 `npu-smi info`（进程、健康）、驱动与 CANN 版本、`dmesg`。"], conf="confirmed")
rt("507901", "The host-device channel (HDC) disconnected: the device crashed, reset or left the bus (rule hw.device-connection-lost).", ["Check the device and `dmesg`; export `msnpureport -f`; reset or service."], "Host-Device 通道（HDC）断开", "Host-Device 通道（HDC）断开：设备崩溃、复位或掉出总线（规则 hw.device-connection-lost）。", ["检查设备和 `dmesg`；导出 `msnpureport -f`；复位或报修。"])
rt("507903", "An earlier error invalidated the ongoing stream capture (rule rt.aclgraph-capture-violation).", ["Find the first error during capture; run eager to confirm."], "捕获状态已失效", "之前的错误使正在进行的 stream 捕获失效（规则 rt.aclgraph-capture-violation）。", ["找捕获期间的第一个错误；用 eager 运行确认。"])
rt("507904", "HCCL's operation retry after a link fault gave up (rule hw.hccl-op-retry-failed).", ["Fix the flapping link / peer that triggered the retry."], "HCCL 算子重执行失败", "链路故障后 HCCL 的算子重执行放弃（规则 hw.hccl-op-retry-failed）。", ["修复触发重试的闪断链路 / 对端。"], conf="confirmed")
for code, zm, c, zc in [("507910", "Host 内存区间已注册", "aclrtHostRegister was called twice on the same host range.", "对同一段 Host 内存重复调用了 aclrtHostRegister。"),
                        ("507911", "Host 内存未注册", "Unregister / device mapping was asked for host memory that was never registered.", "对从未注册的 Host 内存执行了注销 / 设备映射。")]:
    rt(code, c + " (rule rt.api-call-sequence)", [SEQ], zm, zc + "（规则 rt.api-call-sequence）", [SEQ_ZH])
rt("507914", "A UB memory / L3 port error on the unified bus (rule hw.device-link-error).", ["Check the UB / HCCS ports and device health; service the card if it repeats."], "UB 内存 / L3 端口错误", "统一总线（UB）上的内存 / L3 端口错误（规则 hw.device-link-error）。", ["检查 UB / HCCS 端口和设备健康状态；复现则报修。"])
for code, zm in [("507915", "CCU（集合通信单元）超时；较老的 CANN 版本中该值表示找不到符号"), ("507916", "CCU（集合通信单元）异常")]:
    rt(code, "A collective communication unit (CCU) task failed or timed out: peer not answering, link broken, or bad addressing (rule rt.ccu-task-failed).",
       ["Check the other ranks and links first; collect all ranks' logs."], zm, "集合通信单元（CCU）任务失败或超时：对端无响应、链路中断或寻址错误（规则 rt.ccu-task-failed）。", ["先检查其他 rank 和链路；收集所有 rank 的日志。"], conf="hypothesis")


def write_table(path: Path, data: dict[str, dict]) -> None:
    text = path.read_text(encoding="utf-8")
    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("#"))
    doc = yaml.safe_load(text)
    missing = []
    for code, entry in doc["codes"].items():
        add = data.get(str(code))
        if add is None:
            missing.append(code)
            continue
        entry.update(add)
    path.write_text(header + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
    print(f"{path.name}: {len(doc['codes']) - len(missing)} codes filled, {len(missing)} left: {missing[:20]}")


if __name__ == "__main__":
    write_table(ROOT / "rules/codes/acl_error.yaml", ACL)
