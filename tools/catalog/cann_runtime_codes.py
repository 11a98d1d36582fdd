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



# ========================================================================================= cann_error (E?NNNN)
TITLE_ZH = {
    "": "错误", "AclNN_Inner_Error": "aclnn 内部错误", "AclNN_Parameter_Error": "aclnn 参数错误", "AclNN_Runtime_Error": "aclnn 调用 Runtime 出错",
    "Cgroup_Add_Failure": "加入 Cgroup 失败", "Communication_Error_Bind_IP_Port": "通信错误：绑定 IP 端口失败", "Communication_Error_Get_Socket": "通信错误：获取 socket 超时",
    "Communication_Error_P2P": "通信错误：P2P 通信失败", "Communication_Error_Timeout": "通信错误：超时", "Compilation_Error": "编译错误",
    "Compilation_Error_Execute_Fusion_Pass": "编译错误：融合 pass 执行失败", "Compilation_Error_Invalid_Emit_Insn": "编译错误：指令映射无效",
    "Compilation_Error_Invalid_Primitives": "编译错误：原语无效", "Config_Error": "配置错误", "Config_Error_Invalid_Environment_Variable": "配置错误：环境变量无效",
    "Config_Error_Ranktable": "配置错误：ranktable", "Config_Error_Ranktable_Configuration": "配置错误：ranktable 配置", "Device_Absent/Abnormal": "设备不存在或异常",
    "Device_Connection_Failure": "设备连接失败", "Directory_Operation_Error_Create_Failed": "创建目录失败", "Dynamic_Shape_Not_Supported": "不支持动态 shape",
    "Environment_Error": "环境错误", "Environment_Error_Call_Python_Function_Failed": "环境错误：调用 Python 函数失败",
    "Environment_Error_Import_Python_Module_Failed": "环境错误：导入 Python 模块失败", "Environment_Error_Incorrect_Python_Version": "环境错误：Python 版本不符",
    "Execution_Error": "执行错误", "Execution_Error_AICPU_Operator_Timeout": "执行错误：AI CPU 算子超时", "Execution_Error_Invalid_Context": "执行错误：context 无效",
    "Execution_Error_Model": "执行错误：模型执行失败", "Execution_Error_ROCE_CQE": "执行错误：RoCE CQE 错误", "Execution_Error_SDMA": "执行错误：SDMA 拷贝异常",
    "Execution_Error_Stream_Synchronize_Timeout": "执行错误：stream 同步超时", "File_Operation_Error": "文件操作错误", "File_Operation_Error_Invalid_Path": "文件操作错误：路径无效",
    "File_Operation_Error_Open": "文件操作错误：打开失败", "File_Operation_Error_Parse": "文件操作错误：解析失败", "Full_Service_Queue": "服务队列已满",
    "Graph_Pattern_Matching_Failed": "图模式匹配失败", "HCCP_Process_Initialization_Failure": "HCCP 进程初始化失败",
    "Inconsistent_Collective_Communication_Arguments_Between_Ranks": "各 rank 间集合通信参数不一致", "Inner_Error": "内部错误",
    "Inner_Error_AICPU_Scheduler_Init_Failed": "内部错误：AI CPU 调度器初始化失败", "Inner_Error_Cgroup_Add_Failed": "内部错误：加入 Cgroup 失败",
    "Inner_Error_Compile_Fail": "内部错误：编译失败", "Inner_Error_Device_Status_Abnormal": "内部错误：设备状态异常",
    "Inner_Error_Device_Subprocess_Startup_Timeout": "内部错误：设备子进程启动超时", "Inner_Error_Divide_By_Zero": "内部错误：除零",
    "Inner_Error_Driver_API_Call_Failed": "内部错误：驱动接口调用失败", "Inner_Error_Failed_Load_Package_To_Device": "内部错误：向设备加载软件包失败",
    "Inner_Error_Failed_Send_OPP_To_Device": "内部错误：向设备发送算子包失败", "Inner_Error_File_Operation_Fail": "内部错误：文件操作失败",
    "Inner_Error_Group_Attach_Failed": "内部错误：加入共享内存组失败", "Inner_Error_Queue_Scheduler_Init_Failed": "内部错误：队列调度器初始化失败",
    "Inner_Error_TSDaemon_Process_Abnormal": "内部错误：TSDaemon 进程异常", "Inner_Error_Tiling_Fail": "内部错误：tiling 失败",
    "Inner_Error_Unexpected_Value": "内部错误：出现非预期的值", "Inner_Error_Verify_NN_Process_Binary": "内部错误：校验 NN 进程二进制失败",
    "Insufficient_CDQM_Resources": "CDQM 资源不足", "Insufficient_Event_Resources": "Event 资源不足", "Insufficient_Model_Resources": "模型资源不足",
    "Insufficient_Notify_Resources": "Notify 资源不足", "Insufficient_Resources": "资源不足", "Insufficient_Stream_Resources": "Stream 资源不足",
    "Invalid_Argument": "参数非法", "Invalid_Argument_API_Call_Sequence": "参数非法：接口调用顺序错误",
    "Invalid_Argument_Collective_Communication_Operator": "参数非法：集合通信算子参数", "Invalid_Argument_Command": "参数非法：命令",
    "Invalid_Argument_IP_Address": "参数非法：IP 地址", "Invalid_Argument_Input_Attribute_Missing": "参数非法：缺少输入属性",
    "Invalid_Argument_Input_Tensor_Missing": "参数非法：缺少输入张量", "Invalid_Argument_Model": "参数非法：模型", "Invalid_Argument_Null_Pointer": "参数非法：空指针",
    "Invalid_Argument_Shape_Mismatch": "参数非法：shape 不匹配", "Invalid_Attr": "属性值非法", "Invalid_Attr_Size": "属性大小非法", "Invalid_Config_Value": "配置值非法",
    "Invalid_Device_Access": "设备访问无效", "Invalid_Device_ID": "设备 ID 无效", "Invalid_GE_graph": "GE 图无效",
    "Invalid_Graph_Parallel_Option_Configuration": "图并行选项配置无效", "Invalid_Input": "输入非法", "Invalid_Input_Dtype": "输入数据类型非法",
    "Invalid_Input_Format": "输入格式非法", "Invalid_Input_Shape": "输入 shape 非法", "Invalid_Input_ShapeSize": "输入 shape 大小非法",
    "Invalid_Memory_Budget_for_Recompute": "重计算内存预算无效", "Invalid_Numa_Configuration": "NUMA 配置无效", "Invalid_Slice_Number_for_a_Node": "节点切分数无效",
    "Memory_Allocation_Failure": "内存申请失败", "Model_Binding_Errors": "模型绑定错误", "Model_Unbinding_Errors": "模型解绑错误", "NN_Process_Bin_Error": "NN 进程二进制错误",
    "NOT_SUPPORTED": "不支持", "No_Permission": "无权限", "Not_Supported": "不支持", "Not_Supported_API": "不支持该接口", "Not_Supported_Data_Type": "不支持该数据类型",
    "Not_Supported_Format": "不支持该格式", "Not_Supported_Operator": "不支持该算子", "Not_Supported_Shape": "不支持该 shape", "Not_Supported_Specification": "不支持该规格",
    "ONNX_Model_Data_Error": "ONNX 模型数据错误", "Operation_Unsupported": "操作不支持", "Package_Error_Incorrect_Driver_Version": "软件包错误：驱动版本不符",
    "Package_Error_Incorrect_HCCL_Version": "软件包错误：HCCL 版本不一致", "Package_Error_Verify_OPP": "软件包错误：算子包校验失败",
    "Package_Error_Verify_Package": "软件包错误：软件包校验失败", "Profiling_Enable_Errors": "开启 profiling 失败", "Ranktable_Check_Failed": "ranktable 校验失败",
    "Ranktable_Detect_Failed": "ranktable 探测失败", "Resource_Busy": "资源忙", "Resource_Error": "资源错误", "Resource_Error_Bind_Stream": "资源错误：绑定 stream 失败",
    "Resource_Error_Insufficient_Device_Memory": "资源错误：Device 内存不足", "Resource_Error_Insufficient_Host_Memory": "资源错误：Host 内存不足",
    "System_Terminated": "系统终止", "Unsupported_Attribute_for_a_Node": "节点属性不支持", "Unsupported_Operator": "不支持的算子",
}
CLASS_ZH = {"1": "图引擎（GE）", "2": "融合引擎（FE）", "3": "AI CPU", "4": "TE 融合 / TBE 编译", "5": "算子输入校验", "6": "算子参数校验", "7": "算子插件",
            "8": "Vector 算子", "9": "算子编译", "A": "算子编译", "B": "TBE pass 编译", "E": "Runtime", "F": "MDAT", "H": "ACL", "I": "HCCL", "J": "HCCP",
            "K": "Profiling", "L": "驱动", "M": "队列调度", "O": "算子", "P": "dump", "Z": "算子 / aclnn"}

# Class actions for codes whose table entry documents no cause (N/A): what to look at and what to collect.
OP_ACT = (["Read the operator name and the argument in the message and check the shapes, dtypes, formats and attributes the framework passes to that operator against its specification.", VERSIONS, COLLECT],
          ["看报错中的算子名和参数，对照算子规格检查框架传给它的 shape、dtype、格式和属性。", VERSIONS_ZH, COLLECT_ZH])
CLASS_ACT = {
    "1": (["Read the GE message (it names the graph node or option) and fix the graph or option it names.", VERSIONS, COLLECT], ["看 GE 报错（写明了图节点或选项），修正它指出的图或选项。", VERSIONS_ZH, COLLECT_ZH]),
    "2": (["Read the FE message (op / pass / option named) and fix that input; for built-in ops check the CANN version.", VERSIONS, COLLECT], ["看 FE 报错（写明了算子 / pass / 选项），修正对应输入；内置算子检查 CANN 版本。", VERSIONS_ZH, COLLECT_ZH]),
    "3": (["Check the AI CPU operator / device-side packages named in the message; reinstall the CANN kernels matching the toolkit.", COLLECT], ["检查报错中提到的 AI CPU 算子 / Device 侧软件包；重装与 toolkit 配套的 CANN kernels。", COLLECT_ZH]),
    "4": (["Check the Python environment CANN's operator compiler uses (te / tbe packages from the toolkit, `source set_env.sh`).", COLLECT], ["检查 CANN 算子编译器使用的 Python 环境（toolkit 自带的 te / tbe 包，`source set_env.sh`）。", COLLECT_ZH]),
    "E": (["Read the function and reason in the message; the runtime rules (rt.*) cover the common cases.", VERSIONS, COLLECT], ["看报错中的函数和原因；Runtime 规则（rt.*）覆盖了常见情况。", VERSIONS_ZH, COLLECT_ZH]),
    "H": (["Read the API and argument in the message and fix the caller.", VERSIONS, COLLECT], ["看报错中的接口和参数，修正调用方。", VERSIONS_ZH, COLLECT_ZH]),
    "I": (["Read the HCCL message and check every rank's plog for the first error; check the ranktable / environment it names.", COLLECT], ["看 HCCL 报错，检查每个 rank 的 plog 找第一个错误；检查它提到的 ranktable / 环境。", COLLECT_ZH]),
    "J": (["Check the NPU network ports and IP config (`hccn_tool -i <phy_id> -link -g`, `-ip -g`) and leftover processes holding the device.", COLLECT], ["检查 NPU 网口和 IP 配置（`hccn_tool -i <phy_id> -link -g`、`-ip -g`），以及占用设备的残留进程。", COLLECT_ZH]),
    "K": (["Check the profiling configuration and that only one profiling session runs per device.", COLLECT], ["检查 profiling 配置，并确认每个设备只运行一个采集会话。", COLLECT_ZH]),
    "L": (["Check the device with `npu-smi info` (health, processes) and the driver version against CANN.", COLLECT], ["用 `npu-smi info` 检查设备（健康、进程），以及驱动版本与 CANN 是否配套。", COLLECT_ZH]),
    "M": ([COLLECT], [COLLECT_ZH]),
    "P": (["Check the dump configuration (acl.json `dump` block / dump path) against the dump documentation.", COLLECT], ["对照 dump 文档检查 dump 配置（acl.json 的 `dump` 部分 / dump 路径）。", COLLECT_ZH]),
    "F": (["Check the MDAT configuration files the message names (numa_config.json, graph_parallel_option.json).", COLLECT], ["检查报错中提到的 MDAT 配置文件（numa_config.json、graph_parallel_option.json）。", COLLECT_ZH]),
    "B": (["For a custom TBE operator check its compute / schedule code against the TBE guide; for built-in ops upgrade CANN.", COLLECT], ["自定义 TBE 算子对照 TBE 指南检查 compute / schedule 代码；内置算子升级 CANN。", COLLECT_ZH]),
}

# Hand-written entries (our words) for the codes whose table entry documents a cause, and the inner-error codes.
C = {}
def ce(code, causes, actions, zc, za, conf="likely", documented=True):
    C[code] = {"causes": causes, "actions": list(actions), "documented": documented, "confidence": conf, "zh": {"causes": zc, "actions": list(za)}}

ce("E20001", "An operator failed to compile: it was given an argument it cannot handle, or its implementation has a bug.",
   ["For a custom op, check its implementation and the arguments in the error log; for a built-in op, upgrade CANN and report it with the host plog."],
   "算子编译失败：传给它的参数无法处理，或算子实现有缺陷。", ["自定义算子检查其实现和报错日志中的参数；内置算子升级 CANN，并附 Host plog 上报。"])
ce("E20003", "A configuration file item does not follow the documented format or values.", ["Fix the named item in the named file following the user guide."],
   "配置文件中的某项不符合文档规定的格式或取值。", ["按用户指南修正报错中指出的文件里的那一项。"])
ce("E20007", "A graph fusion pass met a graph shape it does not handle.", ["For a custom pass fix its logic; for a built-in pass upgrade CANN and report it with the host plog."],
   "图融合 pass 遇到了它无法处理的图结构。", ["自定义 pass 修正其逻辑；内置 pass 升级 CANN，并附 Host plog 上报。"])
ce("E21001", "A file could not be opened: it does not exist, lacks permissions, or a package was installed incompletely.",
   ["Check the path and permissions; reinstall the CANN package that should provide the file."], "文件无法打开：不存在、权限不足，或软件包安装不完整。", ["检查路径和权限；重装应提供该文件的 CANN 软件包。"])
ce("E21002", "A file could not be parsed because the configured path does not exist.", ["Correct the configured path."], "配置的路径不存在，导致文件无法解析。", ["修正配置的路径。"])
ce("E22001", "No compile result came back for an operator: the compile worker or the main process crashed (segmentation fault).",
   ["Look for the crash (core dump, `dmesg`) of the compile process; check the Python environment used by the op compiler."], "算子没有返回编译结果：编译子进程或主进程崩溃（段错误）。", ["查找编译进程的崩溃原因（core dump、`dmesg`）；检查算子编译器使用的 Python 环境。"])
ce("E30003", "Too many user processes are running in the device's scheduling queue (a previous job has not exited yet).",
   ["Wait about 10 seconds after the previous job exits before starting the next; stop leftover processes on the device."], "设备调度队列中启动的用户进程过多（上一个作业尚未退出）。", ["上一个作业退出后等待约 10 秒再启动下一个；停掉设备上的残留进程。"], conf="confirmed")
for code in ("E30004", "E39008"):
    ce(code, "The device-side binary of a user process is corrupted; the table attributes this to an ECC memory error on the device.",
       ["Check the device for ECC errors (`npu-smi info -t ecc -i <npu_id>`, health) and treat it as a hardware fault if present.", COLLECT],
       "设备侧用户进程的二进制已损坏；错误码表把它归因于设备上的 ECC 内存错误。", ["检查设备的 ECC 错误（`npu-smi info -t ecc -i <npu_id>`、健康状态），存在时按硬件故障处理。", COLLECT_ZH])
ce("E30008", "An AI CPU operator ran past its timeout: a GetNext op with slow preprocessing, a custom op with a huge loop, or very large input / output shapes.",
   ["Speed up the data preprocessing or raise the timeout with aclrtSetOpExecuteTimeOut; for custom ops fix the loop; reduce the shapes."],
   "AI CPU 算子执行超时：GetNext 的预处理太慢、自定义算子中有超大循环，或输入输出 shape 过大。", ["加快数据预处理，或用 aclrtSetOpExecuteTimeOut 调大超时；自定义算子修正循环；减小 shape。"], conf="confirmed")
ce("E39001", "An argument passed to the AI CPU side is empty or has a wrong length.", ["Check the argument named in the host log."], "传给 AI CPU 侧的参数为空或长度错误。", ["检查 Host 日志中指出的参数。"])
ce("E39002", "The device driver did not return the device count / list.", ["Check the driver (`npu-smi info`, `dmesg`) and the device mounts.", COLLECT], "设备驱动没有返回设备数量 / 列表。", ["检查驱动（`npu-smi info`、`dmesg`）和设备挂载。", COLLECT_ZH])
for code in ("E30007", "E39010"):
    ce(code, "The AI CPU scheduler could not be added to its Cgroup: the Cgroup setup on the host is not as the device software expects.",
       ["Check the host Cgroup configuration (cgroup v1/v2 mounts inside the container).", COLLECT], "AI CPU 调度器无法加入 Cgroup：宿主机的 Cgroup 配置与设备软件的预期不一致。", ["检查宿主机 Cgroup 配置（容器内 cgroup v1/v2 的挂载）。", COLLECT_ZH])
for code, zc in (("E39004", "AI CPU 调度进程内部处理异常。"), ("E39005", "TSDaemon 进程内部处理异常。")):
    ce(code, "An internal step of a device-side daemon (AI CPU scheduler / TSDaemon) failed.", [COLLECT, "Restart the device if it repeats (`npu-smi set -t reset -i <npu_id> -c 0`)."],
       zc, [COLLECT_ZH, "反复出现时复位设备（`npu-smi set -t reset -i <npu_id> -c 0`）。"])
for code in ("E30005", "E39009"):
    ce(code, "The host could not reach the device: the device heartbeat is missing or the host-device channel is down.",
       ["Check the device (`npu-smi info`, `dmesg`) and restart / reset it; see hw.lost-heartbeat.", COLLECT], "Host 无法连接设备：设备心跳丢失或 Host-Device 通道断开。", ["检查设备（`npu-smi info`、`dmesg`）并重启 / 复位；见 hw.lost-heartbeat。", COLLECT_ZH], conf="confirmed")
ce("E39006", "Sending the operator package to the device failed: the HDC link is faulty or the device is abnormal.", ["Check device health and the host-device link; reset the device.", COLLECT],
   "向设备发送算子包失败：HDC 链路故障或设备异常。", ["检查设备健康状态和 Host-Device 链路；复位设备。", COLLECT_ZH])
ce("E39007", "A device-side subprocess did not start in time: it failed to start or the HDC link is faulty.", ["Check device health and leftover processes; reset the device.", COLLECT],
   "设备侧子进程没有按时启动：启动失败或 HDC 链路故障。", ["检查设备健康状态和残留进程；复位设备。", COLLECT_ZH])
ce("E30006", "The AI CPU operator package failed verification: the host-side package was modified / does not match, or a device ECC error corrupted it.",
   ["Reinstall the CANN package carrying the AI CPU OPP (matching the toolkit); check the device for ECC errors."], "AI CPU 算子包校验失败：Host 侧包被修改 / 不配套，或设备 ECC 错误损坏了它。", ["重装包含 AI CPU 算子包的 CANN 软件包（与 toolkit 配套）；检查设备 ECC 错误。"])
ce("E39011", "A software package could not be loaded on the device: signature check, decompression or installation failed there.", ["Reinstall the CANN / driver packages matching each other.", COLLECT],
   "软件包无法在设备上加载：签名校验、解压或安装失败。", ["重装相互配套的 CANN / 驱动软件包。", COLLECT_ZH])
ce("W40011", "The disk cache directory could not be created: no permission or an invalid name.", ["Fix the directory permission or name."], "无法创建磁盘缓存目录：无权限或目录名无效。", ["修正目录权限或名称。"])
ce("W40012", "A parameter value is outside its effective range, so the default is used.", ["Set the parameter inside the range the message gives."], "参数取值超出有效范围，因此使用了默认值。", ["按报错给出的范围设置该参数。"])
ce("E40002", "The Python interpreter is older than CANN's operator compiler needs.", ["Use a Python version the CANN release supports."], "Python 版本低于 CANN 算子编译器的要求。", ["使用 CANN 版本支持的 Python 版本。"])
ce("E40003", "A JSON file could not be opened: deleted, not readable, or locked by another user.", ["Check the file and its permissions; avoid several users sharing the same cache."], "JSON 文件无法打开：已被删除、不可读，或被其他用户锁定。", ["检查该文件及其权限；避免多个用户共用同一缓存。"])
ce("E40020", "A Python module CANN needs (te, tbe, op packages or their dependencies) is not importable in this environment.",
   ["Install the missing module in the Python that runs the job and `source /usr/local/Ascend/ascend-toolkit/set_env.sh` so CANN's Python paths are set."],
   "CANN 需要的 Python 模块（te、tbe、算子包或其依赖）在当前环境中无法导入。", ["在运行作业的 Python 中安装缺失的模块，并 `source /usr/local/Ascend/ascend-toolkit/set_env.sh` 以设置 CANN 的 Python 路径。"], conf="confirmed")
ce("E40024", "A Python method CANN calls does not exist: a dependency is missing or of another version, or the CANN environment is not set.",
   ["Check the dependency versions, source set_env.sh, reinstall the CANN package."], "CANN 调用的 Python 方法不存在：依赖缺失或版本不同，或 CANN 环境未设置。", ["检查依赖版本，source set_env.sh，重装 CANN 软件包。"])
ce("E76002", "No ONNX parser is registered for an op type of the model being converted.", ["Remove / replace that operator or request support for it."], "正在转换的模型中有算子类型没有注册 ONNX 解析器。", ["删除 / 替换该算子，或申请支持。"])
ce("EE1002", "A stream synchronisation exceeded its timeout: a task is stuck or the timeout is too short (rule rt.stream-sync-timeout).",
   ["Check the timeout setting and look for the stuck task (other ranks, network)."], "stream 同步超时：有任务卡住，或超时设置过短（规则 rt.stream-sync-timeout）。", ["检查超时设置，找到卡住的任务（其他 rank、网络）。"], conf="confirmed")
ce("EE1013", "The runtime could not get host memory (rule rt.host-memory-exhausted).", ["Free host memory / raise the container limit."], "Runtime 无法申请 Host 内存（规则 rt.host-memory-exhausted）。", ["释放 Host 内存 / 调大容器上限。"], conf="confirmed")
ce("EE1014", "An operator binary could not be parsed: the file is damaged or was built with wrong parameters (rule rt.kernel-binary-invalid).", ["Rebuild / reinstall the operator binary for this CANN and chip."],
   "算子二进制无法解析：文件损坏或编译参数错误（规则 rt.kernel-binary-invalid）。", ["针对当前 CANN 和芯片重新编译 / 重装算子二进制。"], conf="confirmed")
ce("EE1021", "The OS could not create a semaphore, lock or thread for the runtime (rule rt.host-thread-create-failed).", ["Raise the thread / pid limits or reduce threads."],
   "操作系统无法为 Runtime 创建信号量、锁或线程（规则 rt.host-thread-create-failed）。", ["调大线程 / PID 上限或减少线程。"], conf="confirmed")
ce("EE4001", "The stream is already bound to another model.", ["Unbind it from the other model first; do not bind twice."], "该 stream 已绑定到另一个模型。", ["先从另一个模型解绑；不要重复绑定。"], conf="confirmed")
ce("EE4002", "The stream to unbind is not bound to this model, or the model is still running.", ["Unbind only bound streams, after the model finished."], "要解绑的 stream 没有绑定到该模型，或模型仍在运行。", ["只解绑已绑定的 stream，并在模型执行完之后再解绑。"], conf="confirmed")
for code, c, a, zc, za in [
    ("EF2001", "numa_config.json has an invalid format.", ["Fix numa_config.json (or the environment variable pointing at it)."], "numa_config.json 格式无效。", ["修正 numa_config.json（或指向它的环境变量）。"]),
    ("EF2002", "The tensor / data parallel sizes in graph_parallel_option.json do not fit the devices in numa_config.json.", ["Make the parallel sizes multiply to the device count of numa_config.json."], "graph_parallel_option.json 中的张量 / 数据并行数与 numa_config.json 中的设备不匹配。", ["让并行数的乘积等于 numa_config.json 中的设备数。"]),
    ("EF2003", "The graph contains dynamic-shape operations, which this tool does not accept.", ["Use static shapes for the graph."], "图中包含动态 shape 操作，该工具不支持。", ["对图使用静态 shape。"]),
    ("EF2004", "The slice number set for a node is not a positive integer.", ["Set a positive integer or leave it unset (default)."], "为节点设置的切分数不是正整数。", ["设置为正整数，或不设置（使用默认值）。"]),
    ("EF2005", "A node's _process_node_engine_id attribute has a value other than NPU.", ["Unset the attribute or set it to NPU."], "节点的 _process_node_engine_id 属性值不是 NPU。", ["取消该属性，或设为 NPU。"]),
    ("EF2006", "The memory budget for recompute is zero or negative.", ["Give a positive recompute memory budget."], "重计算的内存预算为零或负数。", ["给出正的重计算内存预算。"]),
    ("EF2007", "The input GE graph is invalid (a cycle, or missing op information).", ["Fix the graph so it is acyclic and complete."], "输入的 GE 图无效（有环，或缺少算子信息）。", ["修正图，使其无环且信息完整。"]),
    ("EF2008", "The input graph does not match the pattern the tool expects.", ["Check the graph against the required pattern."], "输入图与工具期望的模式不匹配。", ["对照要求的模式检查图。"])]:
    ce(code, c, a, zc, za)
ce("EH0010", "ACL could not get host memory: the host is out of memory or at its limit.", ["Free host memory / raise the container limit."], "ACL 无法申请 Host 内存：Host 内存耗尽或达到上限。", ["释放 Host 内存 / 调大容器上限。"], conf="confirmed")
ce("EI0001", "An HCCL-related environment variable has an invalid value.", ["Fix the variable named in the message (HCCL_* / ranktable path)."], "与 HCCL 相关的某个环境变量取值无效。", ["修正报错中指出的变量（HCCL_* / ranktable 路径）。"], conf="confirmed")
ce("EI0002", "A collective waited for a peer past the HCCL timeout: a rank failed earlier or is much slower (usually collateral).",
   ["Check the other ranks for an earlier error; if all ranks report it, compare their error times and look for a slow rank; raise HCCL_EXEC_TIMEOUT only for legitimately slow steps."],
   "集合通信等待对端超过 HCCL 超时：某个 rank 更早失败或慢得多（通常是连带结果）。", ["检查其他 rank 是否有更早的错误；所有 rank 都报时比较报错时间找出慢的 rank；只有步骤确实慢时才调大 HCCL_EXEC_TIMEOUT。"], conf="confirmed")
ce("EI0007", "HCCL could not allocate memory or a notify for a communication resource.", ["Free device memory / notify resources (fewer graphs, smaller HCCL_BUFFSIZE).", COLLECT],
   "HCCL 无法为通信资源申请内存或 notify。", ["释放 Device 内存 / notify 资源（减少图、调小 HCCL_BUFFSIZE）。", COLLECT_ZH])
ce("EI0011", "HCCL could not allocate NPU memory for its buffers.", ["Free NPU memory (stop other processes, lower the model's memory budget, smaller HCCL_BUFFSIZE)."], "HCCL 无法为其缓冲区申请 NPU 内存。", ["释放 NPU 内存（停掉其他进程、降低模型显存预算、调小 HCCL_BUFFSIZE）。"], conf="confirmed")
ce("EI0012", "An SDMA copy inside a collective failed: the network link dropped, the peer process exited, or a buffer was unallocated / too small / freed early.",
   ["Check the links, whether a peer exited first, and the sizes of the buffers passed to the collective."], "集合通信中的 SDMA 拷贝失败：网络链路中断、对端进程退出，或缓冲区未分配 / 过小 / 被提前释放。", ["检查链路、是否有对端先退出，以及传给集合通信的缓冲区大小。"], conf="confirmed")
ce("EI0013", "An RDMA error CQE: the network between the two devices is unstable or the peer process exited first.", ["Check the network devices between the two ends and whether the peer exited first."],
   "RDMA 出现错误 CQE：两个设备之间的网络不稳定，或对端进程先退出。", ["检查两端之间的网络设备，以及对端是否先退出。"], conf="confirmed")
ce("EI0014", "The ranktable content does not match the actual devices.", ["Regenerate the ranktable for this cluster (device ids, IPs)."], "ranktable 内容与实际设备不一致。", ["为当前集群重新生成 ranktable（设备 ID、IP）。"], conf="confirmed")
ce("EK0007", "Two profiling modes were started at once (e.g. msprof on the command line and ACL profiling APIs in the app).", ["Use one profiling mode."], "同时启动了两种 profiling 模式（例如命令行 msprof 和应用中的 ACL profiling 接口）。", ["只使用一种 profiling 模式。"], conf="confirmed")
for code in ("EK0201", "EK0202"):
    ce(code, "Profiling could not get host memory.", ["Free host memory / raise the container limit."], "Profiling 无法申请 Host 内存。", ["释放 Host 内存 / 调大容器上限。"])
ce("EK0203", "Profiling could not create a host thread (thread limits reached).", ["Raise the thread / pid limits or reduce threads."], "Profiling 无法创建 Host 线程（达到线程上限）。", ["调大线程 / PID 上限或减少线程。"])
ce("EL0001", "The device does not exist or is abnormal for the driver (rule hw.device-absent).", ["Check `npu-smi info` on the host and the container's device mounts; see the errors before it."],
   "驱动认为设备不存在或异常（规则 hw.device-absent）。", ["在宿主机检查 `npu-smi info` 和容器的设备挂载；看它之前的报错。"], conf="confirmed")
ce("EL0004", "Device memory requested by a module could not be allocated: the HBM is used up.", ["Free device memory (other processes, lower the memory budget)."], "某模块请求的 Device 内存无法申请：HBM 已用完。", ["释放 Device 内存（其他进程、降低显存预算）。"], conf="confirmed")
ce("EL0005", "The device resources are busy: held by another process, the device is being reset, or the software is not ready yet.", ["Stop other users of the device or wait and retry."],
   "设备资源忙：被其他进程占用、设备正在复位，或软件尚未就绪。", ["停掉设备的其他使用者，或稍后重试。"], conf="confirmed")
ce("EL0007", "No permission: the resource is held by someone else or the caller may not use this API (rule rt.device-no-permission).", ["Stop the other users and check permissions."],
   "无权限：资源被其他人占用，或调用方无权使用该接口（规则 rt.device-no-permission）。", ["停掉其他使用者并检查权限。"], conf="confirmed")
for code, zc in (("EL0012", "服务繁忙导致可用资源不足。"), ("EL0013", "服务繁忙导致 CDQM 资源不足。")):
    ce(code, "Resources are short because the service is busy.", ["Reduce the load."], zc, ["降低负载。"])
ce("EL0015", "The device is bound to another container or the user has no permission on it (rule rt.device-no-permission).", ["Check the configuration and leftover container processes."],
   "设备已绑定到其他容器，或用户对它无权限（规则 rt.device-no-permission）。", ["检查配置和残留的容器进程。"], conf="confirmed")
ce("EM9001", "The queue_schedule process is not in the shared memory group.", [COLLECT], "queue_schedule 进程没有加入共享内存组。", [COLLECT_ZH])
ce("EM9002", "The queue_schedule process failed internally during initialisation.", [COLLECT], "queue_schedule 进程初始化时内部处理异常。", [COLLECT_ZH])
for code, c, zc in [("EZ0501", "No IR is registered for the operator type (the op does not exist in this CANN).", "该算子类型没有注册 IR（当前 CANN 中没有该算子）。"),
                    ("EZ3002", "The operator type is not supported by the op information library for this specification (dtype / shape / format).", "算子信息库不支持该规格（dtype / shape / 格式）下的该算子类型。"),
                    ("EZ3003", "No ops kernel or engine supports the operator: the op package lacks it or is not installed.", "没有任何算子库 / 引擎支持该算子：算子包中没有它或未安装。"),
                    ("EZ9010", "No parser is registered for the operator type.", "该算子类型没有注册解析器。")]:
    ce(code, c, ["Check the OPP / kernels package is installed and matches the toolkit; replace the operator or request support.", VERSIONS], zc,
       ["确认 OPP / kernels 包已安装且与 toolkit 配套；替换该算子或申请支持。", VERSIONS_ZH], conf="confirmed")
for code, c, zc in [("EB0000", "The operator's IR is invalid (custom TBE operator).", "算子的 IR 无效（自定义 TBE 算子）。"),
                    ("EB1000", "Primitives are misused or misaligned, or parameters have wrong types (custom TBE operator).", "原语使用不当或未对齐，或参数类型错误（自定义 TBE 算子）。"),
                    ("EB3000", "The memory allocated in the operator is out of the allowed range.", "算子中分配的内存超出了允许范围。"),
                    ("EB4000", "An instruction parameter is wrong (offset alignment / instruction choice).", "指令参数错误（偏移对齐 / 指令选择）。"),
                    ("EB9000", "The operator's IR is invalid.", "算子的 IR 无效。"),
                    ("EB0500", "The compiler check failed; the message gives the reason.", "编译器检查失败；报错给出了原因。")]:
    ce(code, c, ["Check the custom operator's compute / schedule code against the TBE guide; for built-in ops upgrade CANN."], zc, ["对照 TBE 指南检查自定义算子的 compute / schedule 代码；内置算子升级 CANN。"])
for code, who, zwho in [("E19999", "graph engine (GE)", "图引擎（GE）"), ("E39999", "AI CPU", "AI CPU"), ("EE9999", "runtime", "Runtime"), ("EH9999", "ACL", "ACL"),
                        ("EI9999", "HCCL", "HCCL"), ("EJ9999", "HCCP", "HCCP"), ("EL9999", "driver", "驱动")]:
    ce(code, f"An inner error of the {who}: the code itself carries no cause; the TraceBack lines printed under it and the plog name the first failing call.",
       ["Read the TraceBack lines under this code (the first one is the earliest failure) and match them against the specific rules.", COLLECT],
       f"{zwho}内部错误：该错误码本身不含原因；其下打印的 TraceBack 行和 plog 给出了第一个失败的调用。", ["看该错误码下的 TraceBack 行（第一行是最早的失败），与具体规则对照。", COLLECT_ZH],
       documented=False)
ce("EI0009", "HCCL could not initialise a transport between two ranks (link set-up failed).", ["Check the links / ports between the ranks and the first error on each rank.", COLLECT],
   "HCCL 无法在两个 rank 之间初始化传输通道（建链失败）。", ["检查 rank 之间的链路 / 端口，以及每个 rank 上的第一个错误。", COLLECT_ZH])

for code, c, zc, rule in [
    ("EE1001", "A runtime argument check failed; the reason names the value (for example ASCEND_RT_VISIBLE_DEVICES out of range or not ascending).", "Runtime 参数校验失败；原因中写明了取值（例如 ASCEND_RT_VISIBLE_DEVICES 越界或不是升序）。", "rt.api-invalid-argument / device.*"),
    ("EE1003", "A runtime API got a parameter value outside the expected range; the message names function, parameter, value and expected value.", "Runtime 接口的参数值超出期望范围；报错写明了函数、参数、取值和期望值。", "rt.api-invalid-argument"),
    ("EE1004", "A runtime API got a null pointer for a required argument.", "Runtime 接口的必需参数收到了空指针。", "rt.api-invalid-argument"),
    ("EE1005", "The operation is not supported by this system or device (product or driver lacks it).", "当前系统或设备不支持该操作（产品或驱动不具备）。", "rt.feature-not-supported"),
    ("EE1006", "The operation is not supported in this form (stream type, flags, SoC); the reason says which.", "该操作在这种形式下不支持（流类型、标志、SoC）；原因中写明了具体情况。", "rt.feature-not-supported"),
    ("EE1007", "The stream could not be bound to the model (already bound elsewhere, or its state does not allow it).", "stream 无法绑定到模型（已绑定到别处，或其状态不允许）。", "rt.api-call-sequence"),
    ("EE1009", "A model / ACL graph failed to execute; the reason and the device errors before it name the failing task.", "模型 / ACL Graph 执行失败；原因及之前的设备错误给出了失败的任务。", "rt.model-execute-failed"),
    ("EE1010", "An object (stream, model, label) was used from a context it does not belong to.", "某个对象（stream、model、label）在不属于它的 context 中被使用。", "rt.wrong-device-context"),
    ("EE1011", "A parameter value is invalid for the reason the message gives.", "参数取值无效，原因见报错。", "rt.api-invalid-argument"),
    ("EE1012", "A value is invalid for the reason the message gives.", "某个取值无效，原因见报错。", "rt.api-invalid-argument"),
    ("EE1015", "The installed driver lacks a capability this runtime needs (driver older than CANN requires).", "已安装的驱动缺少当前 Runtime 需要的能力（驱动比 CANN 要求的旧）。", "rt.driver-too-old"),
    ("EE1016", "The operation is not supported in the current mode (ACL graph capture rules, graph-only APIs, stream type); the reason says which.", "当前模式下不支持该操作（ACL Graph 捕获规则、仅图模式可用的接口、流类型）；原因中写明了具体情况。", "rt.aclgraph-capture-violation / rt.feature-not-supported"),
    ("EE1017", "A parameter (often a handle) is invalid: destroyed, or of another type.", "某个参数（常为句柄）无效：已被销毁，或类型不对。", "rt.api-invalid-argument"),
    ("EE1018", "Runtime APIs were called in the wrong order or on an object in the wrong state; the reason says which rule.", "Runtime 接口调用顺序错误，或对象状态不对；原因中写明了违反的规则。", "rt.api-call-sequence"),
    ("EE1019", "A task could not be added: the stream already holds the maximum number of pending tasks.", "无法添加任务：stream 上待执行的任务已达上限。", "rt.stream-task-queue-full"),
    ("EE1020", "A C library call inside the runtime failed (errno in the message).", "Runtime 内部的 C 库调用失败（errno 见报错）。", "rt.stdlib-call-failed"),
    ("EE1022", "Several parameter values are invalid together, for the reason given.", "多个参数取值组合无效，原因见报错。", "rt.api-invalid-argument"),
    ("EE2002", "A runtime environment variable has an invalid value (LD_LIBRARY_PATH without the CANN libraries, ASCEND_RT_VISIBLE_DEVICES duplicated / unordered).", "Runtime 环境变量取值无效（LD_LIBRARY_PATH 中没有 CANN 库、ASCEND_RT_VISIBLE_DEVICES 重复 / 非升序）。", "rt.ld-library-path-invalid / device.*"),
    ("EZ2001", "The device's health management reported a hardware (RAS) fault at the time of an AI Core error; the fault, not the kernel, is the cause.", "设备健康管理在 AI Core 报错的同时上报了硬件（RAS）故障；原因是硬件故障，而不是 kernel。", "hw.ras-fault-event"),
    ("WE0001", "A warning: the requested use is not supported (for example external event record / wait on an event not created for it).", "告警：请求的用法不受支持（例如对不是为此创建的 event 做外部记录 / 等待）。", "rt.feature-not-supported"),
]:
    ce(code, c + f" See rule {rule}.", ["Follow the cause and fix of the named rule; the message's function and reason say which case applies.", COLLECT],
       zc + f"见规则 {rule}。", ["按所述规则的原因和处理方法处理；报错中的函数和原因说明了属于哪种情况。", COLLECT_ZH], documented=False)
ce("EE1023", "A device resource pool is exhausted (streams, events, notifies, or the async-copy queue of an ACL graph); the reason names which (runtime FAQ EE1023; rules rt.stream-resource-exhausted, rt.event-resource-exhausted, rt.notify-resource-exhausted, rt.async-copy-queue-full).",
   ["Pair create / destroy calls, destroy finished graphs, capture fewer graph sizes, check other processes on the NPU (`npu-smi info`)."],
   "设备资源池耗尽（stream、event、notify，或 ACL Graph 的异步拷贝队列）；原因中写明了是哪一种（Runtime FAQ EE1023；规则 rt.stream-resource-exhausted、rt.event-resource-exhausted、rt.notify-resource-exhausted、rt.async-copy-queue-full）。",
   ["创建与销毁成对调用，销毁执行完的图，减少捕获档位，检查同一 NPU 上的其他进程（`npu-smi info`）。"], conf="confirmed")


def cann_entries(repo: str) -> dict[str, dict]:
    """causes / actions / documented / confidence / zh for every code of cann_error.yaml."""
    import json
    import subprocess
    text = subprocess.run(["git", "-C", repo, "show", "HEAD:src/dfx/error_manager/error_code.json"], capture_output=True, text=True, check=True).stdout
    meta = {e["ErrCode"]: e for e in json.loads(text)["error_info_list"]}
    table = yaml.safe_load((ROOT / "rules/codes/cann_error.yaml").read_text(encoding="utf-8"))["codes"]
    out = {}
    for code, entry in table.items():
        m = meta.get(code, {})
        module = code[1]
        title_zh = TITLE_ZH.get(m.get("errTitle", entry.get("name", "")), TITLE_ZH.get(entry.get("name", ""), "错误"))
        zh_meaning = f"{CLASS_ZH.get(module, '')}{'：' if CLASS_ZH.get(module) else ''}{title_zh}"
        if code in C:
            item = dict(C[code])
            item["zh"] = {"meaning": zh_meaning, **C[code]["zh"]}
            out[code] = item
            continue
        msg = " ".join((m.get("ErrMessage") or entry["meaning"]).split())
        acts, zacts = OP_ACT if module in "56789AOZ" else CLASS_ACT.get(module, ([COLLECT], [COLLECT_ZH]))
        out[code] = {"causes": f'No cause is documented for this code; its message says what failed: "{msg}"',
                     "actions": list(acts), "documented": False, "confidence": "likely",
                     "zh": {"meaning": zh_meaning, "causes": f"错误码表没有给出原因；报错信息本身说明了失败内容：\"{msg}\"", "actions": list(zacts)}}
    return out


MODULE_ZH = {
    "1": ("图引擎（GE）", "图编译和图执行阶段报出的错误"), "2": ("融合引擎（FE）", "算子选择和图融合阶段报出的错误"), "3": ("AI CPU", "AI CPU 算子和调度报出的错误"),
    "4": ("TE 融合 / TBE", "TBE 算子编译报出的错误"), "5": ("算子输入校验", "算子校验输入（shape、格式、dtype）时报出的错误"), "6": ("算子参数校验", "算子校验参数和属性时报出的错误"),
    "7": ("Vector 算子插件", "算子插件报出的错误"), "8": ("Vector 算子", "Vector 算子实现报出的错误"), "9": ("算子编译", "算子 kernel 编译报出的错误"), "A": ("算子编译", "算子 kernel 编译报出的错误"),
    "B": ("TBE pass 编译", "TBE pass 编译报出的错误"), "C": ("Auto Tune", "调优工具报出的错误"), "D": ("RL Tune", "调优工具报出的错误"),
    "E": ("Runtime（RTS）", "Runtime 接口和设备任务报出的错误"), "F": ("LxFusion / MDAT 部署", "LxFusion / MDAT 部署工具报出的错误"), "G": ("AOE", "AOE 调优工具报出的错误"),
    "H": ("ACL", "AscendCL 接口报出的错误"), "I": ("HCCL", "集合通信库报出的错误"), "J": ("HCCP", "集合通信的设备侧进程（网口 / RDMA）报出的错误"),
    "K": ("Profiling", "性能采集报出的错误"), "L": ("驱动", "NPU 驱动报出的错误"), "M": ("队列调度", "队列调度进程报出的错误"), "N": ("DVPP", "媒体数据处理报出的错误"),
    "O": ("AMCT", "模型压缩工具报出的错误"), "P": ("Dump", "数据 dump 报出的错误"), "Z": ("通用算子 / aclnn", "通用算子和 aclnn 接口报出的错误"),
}


def module_entries() -> dict[str, dict]:
    table = yaml.safe_load((ROOT / "rules/codes/cann_module.yaml").read_text(encoding="utf-8"))["codes"]
    out = {}
    for letter, entry in table.items():
        key = str(letter)
        name_zh, what_zh = MODULE_ZH.get(key, (entry["name"], f"{entry['name']} 模块报出的错误"))
        out[key] = {"causes": f"The error comes from the {entry['name']} module. Codes ending in 9999 are its inner errors (the lines under them name the real failure); lower numbers are usage or environment problems this module detected.",
                    "actions": ["Read the message and the TraceBack lines under the code; look the full code up in the cann_error table.", COLLECT],
                    "documented": True, "confidence": "likely",
                    "zh": {"meaning": f"{name_zh}：{what_zh}", "causes": f"错误来自 {name_zh} 模块。以 9999 结尾的是该模块的内部错误（其下的行给出真正的失败）；编号较小的是该模块检测到的使用或环境问题。",
                           "actions": ["看报错信息和错误码下的 TraceBack 行；在 cann_error 表中查完整的错误码。", COLLECT_ZH]}}
    return out


if __name__ == "__main__":
    write_table(ROOT / "rules/codes/acl_error.yaml", ACL)
    write_table(ROOT / "rules/codes/cann_error.yaml", cann_entries("/work/.mirror/hicann+runtime/repo"))
    write_table(ROOT / "rules/codes/cann_module.yaml", module_entries())
