# ruff: noqa: E501  (message tables: one catalog template a line)
"""Write ``rules/mindie_internal.yaml``: the rules that recognise MindIE's internal checks and the
model-config / request / host-environment checks of ``catalogs/mindie.yaml`` by their own messages.

Usage: ``python tools/catalog/mindie_internal_rules.py`` (after ``tools/catalog/mindie.py``; reads the
catalog, writes the rule file and annotates the catalog's entries with the rule that covers them).

Every pattern is the message of one catalog entry (its template): the literal text kept, every ``{}`` /
``%s`` / ``%d`` a lazy ``.*?``, leading and trailing placeholders dropped. A template whose literal text is
too short to tell it from unrelated lines (a longest literal run under 14 characters, under 16 letters
or under 3 words) gets no pattern and keeps an exclusion that says so.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT  # noqa: E402

CATALOG = ROOT / "catalogs" / "mindie.yaml"
TARGET = ROOT / "rules" / "mindie_internal.yaml"
REPO = "Ascend/MindIE-LLM"

PH = re.compile(r"\{\}|%[-+#0 ]*\d*(?:\.\d+)?(?:ll|l|h|z)?[sdifxXuc]")
KEEP_EXCLUDED = ("only reachable from tests", "FAQ prose")
R_GENERIC = ("internal check whose text is too short or generic to be told apart from unrelated lines by a "
             "pattern (no rule can name it without misfiring); it reaches the log, but an earlier or later "
             "line of the same failure is the one to act on")


def pieces(template: str) -> list[str]:
    return [p for p in (s.strip() for s in PH.split(template)) if p]


def specific(template: str) -> bool:
    lit = pieces(template)
    longest = max((len(p) for p in lit), default=0)
    letters = sum(len(re.findall(r"[A-Za-z\u4e00-\u9fff]", p)) for p in lit)
    words = len(re.findall(r"[A-Za-z]{2,}|[\u4e00-\u9fff]{2,}", " ".join(lit)))
    return longest >= 14 and letters >= 16 and words >= 3


def pattern(template: str) -> str:
    parts = [re.escape(p) for p in pieces(template)]
    return ".*?".join(parts)


# ------------------------------------------------------------------ which rule an entry belongs to
def internal_component(path: str) -> str:
    if path.startswith(("src/executor/", "mindie_llm/connector/", "src/server/endpoint/grpc_wrapper/",
                        "mindie_llm/utils/layerwise/")) or "layerwise_disaggregated/" in path:
        return "mindie.internal-check-ipc"
    if path.startswith(("src/scheduler/", "src/engine/", "src/llm_manager", "src/sequence/", "src/load_balance/",
                        "src/block_manager/", "src/include/")):
        return "mindie.internal-check-llm-manager"
    if path.startswith("src/"):
        return "mindie.internal-check-server"
    if path.startswith(("mindie_llm/runtime/", "examples/atb_models/")):
        return "mindie.internal-check-model-runtime"
    return "mindie.internal-check-text-generator"


# Uncovered entries (no exclusion by the extractor) sorted by hand: a substring of the template -> rule.
# INTERNAL: internal checks of the code (the component comes from the path).
INTERNAL = [
    "Number of output tensors is not equal", "is not registed", "self attention pack type not supported",
    "self_attn.pack_type:", "mlp pack type not supported", "mlp.pack_type:", "Expected a 3-dimensional input array",
    "`proj_name`'s type field must be one of", "is invalid in `get_sharded`", "are not equal.",
    "The output tensors do not match for key", "Error while trying to find names to remove",
    "trans_flag of linear_module with prefixes", "routing weight key error in process",
    "Forward context is not set", "Inputs must contains `input_ids` and `position_ids`", "Unsupported ParallelType",
    "ACL graph capturing detected at an inappropriate time", "not allocated! This request not prefilled",
    "Total decoding steps of lookahead is 0", "Total running time of lookahead is 0",
    "has never been executed, so data statistics", "Index of cached_idx is out of range",
    "is less than num_speculative_tokens", "Inference requires 'hit_mask' to be provided",
    "There is no cached data for sequence", "is not prefilled before decoding",
    "Block copy operator has not been successfully initialized", "Each request must have only 1 sequence",
    "NZ_KV_CACHE_FORMAT should not be 0", "NZ_KV_CACHE_INT8_FORMAT should not be 0",
    "self.cache_block_bytes should not be 0", "Empty `token_ids` generated", "Failed to get or create context for sequence",
    "Cannot fork context for sequence", "must be divisible by dp_size", "Something not implemented:",
    "is abstract, needed to be implemented", "not implemented, supported backends",
    "Missing seqId in skipCurrentRoundMap", "Pull_kv error: block id out of range", "is not given when data parallel size",
    "SeparateDeploymentEngine not support mb_swapper", "SeparateDeploymentEngine: not support role",
    "A certain output length of beam search is invalid", "LoraManager not initialized", "ErrorCode not found in errorCodeMap",
    "Slave worker initialization result", "Shared memory allocation is invalid", "Integer overflow:",
    "Unknown exception occurred in device_id check", "Unknown exception occurred in rankId check",
    "Type error for modelInstanceId", "Recompute is not supported. requestId", "reinterpret_cast produced null from dlsym",
    "dcmi_init conversion failed", "Error failed to get respBody outputs info", "Execute sem_wait failed iteration",
    "Execute sem_post failed iteration", "The server cannot process the inference request due to an unknown status",
    "Convert string to json object failed, CallbackId", "Convert string to json object exception",
    "Unsupported integer type:", "modelDeployConfigParamVec is empty", "An unknown exception occurred when converting",
    "Unknown error occurred while initializing ProcessGroup", "Failed to parse context to infer param for id",
    "Could not have inputs an input_id at the same time", "Core thread encountered an exception",
    "Failed to memory copy with size", "The shared memory name format is abnormal", "Shared memory name is error",
    "Get FaultRecoveryCmdType type failed", "Decode FaultRecoveryCmd string to json error",
    "Error during deserialization:", "[AddDevicesToRequest] Failed to AddDevicesToRequest for lack of",
    "Handle StatusV2 Failed", "Parse id in request failed",
]
MODEL_CONFIG = [
    "PositionRotaryEmbedding scaling_factor cannot be 0", "As for long sequence, only Yarn, DynamicNTK and llama3",
    "If long_seq_enable and ROPE_TYPE is llama3 or dynamic", "`topk_method`'s type field must be one of",
    "`topk_method is `greedy`, please set `topk_group=1`", "eos_token_id must be Union",
    "BOS token ID is invalid (-1)", "The weight type must be FP16 or BF16", "has not implemented W8A8SC quant method yet",
    "Found multiple config files for `QuantizationConfig`", "MoE strategy selection failed, please check the config",
    "is larger than MAX_FUSED_MC2_OPERATOR_CAPACITY", "Dummy run failed for capture batch size is larger than max input_len",
    "is not evenly divisible by", "not supported kvcache dtype for ATB backend",
    "now in reasoning parser without given end_reasoning_token id", "Please check the input parameters model_path, kwargs",
    "Model name should not start with", "Local rank should be in the range of 0 to world_size - 1",
    "Unknown cache engine type", "HealthChecker: NPU device IDs are empty in DMI mode",
]
REQUEST = [
    "The conversation is empty!", "There is not any queries in the conversation", "Unknown role:",
    "'force' must be a boolean, but got", "Multimodal source type should be among image, video and audio",
    "Unsupported image loader type", "Invalid size limit for input type", "Invalid size limit for image",
    "An exception occurred when parsing the function call. The large model response is invalid",
    "does not exist, please check", "Version length must be in", "The input string does not meet the expected format",
]
LWD = [
    "lwd_rank_table_file", "The tcp connection of LayerwiseDisaggregated is fail", "control communication recv",
    "edge_npu_smi_info", "cloud_npu_smi_info", "Lwd The value of dp_num must be greater than 0",
]
HOST = [
    "Shared memory path is symlink", "Failed to get shared memory file system information", "Failed to open shared memory",
    "Failed to fstat shared memory", "Failed to create tokenizer share memory", "Home directory",
    "Allowed maximum path length is", "Failed to get binary path", "Failed to get real path of home", "failed to get home path",
    "Socket creation failed", "Failed to create tokenizer sub process", "Tokenizer pool process worker failed",
    "Failed to launch Python worker processes", "Failed to rename", "ProcessGroup construct CreateMasterListenSocket failed",
    "The length of environment variable `MODELTEST_DATASET_SPECIFIED`",
]


# Entries whose message an existing rule of its own already names (it ranks above the catch-all rules here):
# they keep that rule and give no pattern to the rules written here.
SPECIFIC = {
    "'{}' is owned by user ID {}, but current process is running as user ID {}. Access denied.": "mindie.shared-memory-owner-mismatch",
    "In MHA/GQA/MQA, num_kv_heads should be divisible by num_heads.": "mindie.parallel-config-mismatch",
    "Not support cp and dp: cp size is {};dp size is {}": "mindie.feature-combination-unsupported",
    "Do not support sp currently.": "mindie.feature-combination-unsupported",
    "Mooncake init failed, expected kv caches to register, but it is None.": "mindie.kv-pool-backend-unavailable",
    "Failed to put key {}, ret: {}": "serving.kv-pool-transfer-failed",
    "Failed to get key: [{}], ret: {}.": "serving.kv-pool-transfer-failed",
    "Unsupported type for global_segment_size: {}": "serving.kv-pool-config-invalid",
    "global segment size cannot be empty.": "serving.kv-pool-config-invalid",
    "metricsTlsCrlFiles init error": "mindie.tls-cert-path-invalid",
    "metricsTlsCaFile init error": "mindie.tls-cert-path-invalid",
    "ERR: serverConfig_.metricsTlsCrlFiles size must in [0, 3] .": "mindie.tls-cert-path-invalid",
    "ERR: serverConfig_.metricsTlsCrlFiles file not exit .": "mindie.tls-cert-path-invalid",
    "ERR: serverConfig_.metricsTlsCaFile size must in [1, 3].": "mindie.tls-cert-path-invalid",
    "ERR: serverConfig_.metricsTlsCaFile file not exit .": "mindie.tls-cert-path-invalid",
    "Failed to initialize GRPC communicator for multi-nodes inference.": "mindie.multinode-grpc-failed",
    "gRPC CreateChannel Error: {}": "mindie.multinode-grpc-failed",
    "gRPC CreateChannel failed with unknown exception": "mindie.multinode-grpc-failed",
    "Failed to establish connection to master after maximum retries": "mindie.multinode-grpc-failed",
    "Semaphore {} owned by uid {}, but current uid is {}": "mindie.shared-memory-owner-mismatch",
    "Failed to create ConfigManager in LlmManagerImpl": "mindie.config-json-unreadable",
    "Failed to get key file content": "serving.kv-pool-transfer-failed",
    "Failed to get key content": "serving.kv-pool-transfer-failed",
    "Get lib path failed": "mindie.install-incomplete",
    "Failed to listen {}:{}, please check if management ip and metrics port are legal.": "mindie.http-listen-failed",
    "Init metrics http server failed! Port is {}": "mindie.http-listen-failed",
    "Pull kv failed irreversibly. {}": "mindie.pd-kv-pull-failed",
    "Pull kv failed reversibly. {}": "mindie.pd-kv-pull-failed",
    "Convert token to text output failed. The requestId is {}": "mindie.request-invalid",
}


def hand_rule(template: str) -> str | None:
    if template in SPECIFIC:
        return SPECIFIC[template]
    for keys, rule in ((LWD, "mindie.layerwise-disaggregation-failed"),
                       (MODEL_CONFIG, "mindie.model-config-rejected"), (REQUEST, "mindie.request-rejected"),
                       (HOST, "mindie.host-environment-check-failed"), (INTERNAL, None)):
        if any(k in template for k in keys):
            return rule or "internal"
    return None


# ------------------------------------------------------------------ rule texts
ATTACH = ("Report it to MindIE (Ascend/MindIE-LLM issues) with this line and the 50 lines before it, the MindIE "
          "version (`pip show mindie_llm`, or the image tag), config.json without secrets, the model and its "
          "parallel settings, and the plog of the failing process (`~/ascend/log/debug/plog`).")
ATTACH_ZH = ("向 MindIE（Ascend/MindIE-LLM issues）反馈，附上这一行及其前 50 行、MindIE 版本（`pip show mindie_llm` 或镜像标签）、"
             "去掉密钥的 config.json、模型及其并行设置，以及出错进程的 plog（`~/ascend/log/debug/plog`）。")
EARLIER = ("Look for an earlier error in the same log and in the plog (the first `[ERROR]` before this line, an NPU, "
           "HCCL or out-of-memory error, a worker that exited); if there is one, act on that: this check is then "
           "its consequence.")
EARLIER_ZH = ("先在同一份日志和 plog 里找更早的错误（这一行之前的第一条 `[ERROR]`、NPU / HCCL / 内存不足错误、退出的 worker）；"
              "如果有，先处理它：这个检查只是它的后果。")
UPGRADE = ("Otherwise upgrade to the newest MindIE release (these messages were taken from MindIE-LLM at commit "
           "8b4871ad of 2026-04-23; the newest tag there is 3.0.0.beta.1) and retry.")
UPGRADE_ZH = ("否则升级到最新的 MindIE 版本（这些报错取自 2026-04-23 的 MindIE-LLM 提交 8b4871ad；其最新标签为 "
              "3.0.0.beta.1）后重试。")

COMPONENTS = {
    "mindie.internal-check-server": dict(
        name="MindIE Server (mindieservice_daemon: endpoint, HTTP / gRPC handlers, config manager, utils)",
        short="MindIE Server", zh_short="MindIE Server",
        what="a null handle, a request or response it cannot convert, a map entry it expected, a failed internal copy "
             "or allocation, an unexpected message type",
        what_zh="空句柄、无法转换的请求或响应、应有却缺失的映射项、内部拷贝或分配失败、意外的消息类型",
        workaround="As a workaround, turn off the feature the failing request used (streaming, logprobs, tool calls, "
                   "the OpenAI / TGI / Triton endpoint variant) to see whether another path works.",
        workaround_zh="临时规避：关闭出错请求用到的功能（流式输出、logprobs、工具调用、OpenAI / TGI / Triton 接口变体），看其他路径是否可用。"),
    "mindie.internal-check-ipc": dict(
        name="MindIE's executor and connector (the IPC / gRPC plumbing between the server and the Python model workers)",
        short="MindIE's executor / connector", zh_short="MindIE executor / connector",
        what="a message it cannot serialise or parse, a handler or queue in the wrong state, a shared-memory or "
             "semaphore operation that failed",
        what_zh="无法序列化或解析的消息、状态不对的 handler 或队列、失败的共享内存或信号量操作",
        workaround="A crash of a model worker shows up here as a broken pipe or a failed receive: check that every "
                   "worker process is still alive (`ps -ef | grep mindie`) and read the first worker's error.",
        workaround_zh="模型 worker 崩溃时，这里会表现为断开的管道或接收失败：确认每个 worker 进程都还在（`ps -ef | grep mindie`），并查看第一个 worker 的报错。"),
    "mindie.internal-check-llm-manager": dict(
        name="MindIE LLM's manager, scheduler and engine (request, sequence and block bookkeeping)",
        short="MindIE LLM's scheduler / engine", zh_short="MindIE LLM 的调度器 / 引擎",
        what="a sequence or request id it does not know, a block table out of step, a state transition that should "
             "not happen",
        what_zh="不认识的序列或请求 id、对不上的 block 表、不应发生的状态迁移",
        workaround="As a workaround, turn off the scheduling features in use one at a time (prefix cache, split-fuse / "
                   "chunked prefill, speculative decoding, PD separation, LoRA) and keep the one that avoids it.",
        workaround_zh="临时规避：逐个关闭正在使用的调度特性（prefix cache、split-fuse / chunked prefill、投机解码、PD 分离、LoRA），保留能避开问题的配置。"),
    "mindie.internal-check-text-generator": dict(
        name="MindIE LLM's text generator (mindie_llm: generator, plugins, samplers, KV cache, tokenizer wrapper)",
        short="MindIE LLM's text generator", zh_short="MindIE LLM 的文本生成器",
        what="a batch or sequence it has no cache for, a plugin state out of step, a tensor of an unexpected shape, "
             "a backend or handler that is not implemented",
        what_zh="没有缓存的批次或序列、状态对不上的插件、形状不符的 tensor、未实现的后端或处理器",
        workaround="As a workaround, turn off the plugin in use (`plugin_params`: mtp, la, splitfuse, prefix cache, "
                   "structured output) or the async / aclgraph path, and retry.",
        workaround_zh="临时规避：关闭正在使用的插件（`plugin_params`：mtp、la、splitfuse、prefix cache、结构化输出）或异步 / aclgraph 路径后重试。"),
    "mindie.internal-check-model-runtime": dict(
        name="MindIE's model runtime (mindie_llm runtime layers and ops, atb_llm model runner and ATB framework)",
        short="MindIE's model runtime", zh_short="MindIE 的模型运行时",
        what="a weight, tensor or layer of a shape or layout the kernel does not expect, a registry entry that is "
             "missing, an ATB operation without its context",
        what_zh="形状或排布不符合 kernel 预期的权重、tensor 或层，缺失的注册项，没有上下文的 ATB 算子",
        workaround="As a workaround, try the other model backend or graph mode (ATB vs. the torch / aclgraph runner, "
                   "eager mode without graph capture), and weights exactly as published for the model.",
        workaround_zh="临时规避：换用另一种模型后端或图模式（ATB 与 torch / aclgraph runner 之间切换，或不做图捕获的 eager 模式），并使用与发布一致的模型权重。"),
}

HAND = {
    "mindie.model-config-rejected": dict(
        title="MindIE rejected the model's configuration or a launch setting that does not fit the model",
        layer="framework", component="MindIE (model loader / runtime) and the model's config files", severity="error",
        priority=55,
        cause=("A check of MindIE's model loader or runtime found a value that this model or backend does not "
               "support, in the model's config.json / generation_config.json or in MindIE's config.json: a RoPE "
               "scaling type or factor, an MoE top-k method or group setting, eos / bos token ids, the weight dtype, "
               "a quantization type the model has no kernels for, an MoE capacity, parallel sizes that do not "
               "divide the model, the KV cache dtype, the reasoning parser's end token. The message names the value."),
        fix=["Read the value the message names and compare it with the model's config.json / generation_config.json "
             "and with ModelConfig in MindIE's config.json (worldSize, tp / dp / ep sizes, maxInputLength, KV cache "
             "settings).",
             "Use the config files as published for the model (a converted or quantized copy must keep rope_scaling, "
             "eos_token_id, torch_dtype and the MoE settings), and parallel sizes that divide heads and experts evenly.",
             "If the model or quantization type is not in the model support list of your MindIE release, use a "
             "release that lists it."],
        zh=dict(title="MindIE 拒绝了模型配置，或与模型不匹配的启动参数",
                cause=("MindIE 模型加载器或运行时的一项检查发现了该模型或后端不支持的取值，位于模型的 config.json / "
                       "generation_config.json 或 MindIE 的 config.json 中：RoPE 缩放类型或系数、MoE top-k 方法或分组设置、"
                       "eos / bos token id、权重数据类型、模型没有对应 kernel 的量化类型、MoE 容量、不能整除模型的并行数、KV cache "
                       "数据类型、推理解析器的结束 token。报错中写明了该取值。"),
                fix=["看报错写明的取值，对照模型的 config.json / generation_config.json 以及 MindIE config.json 中的 ModelConfig"
                     "（worldSize、tp / dp / ep 大小、maxInputLength、KV cache 设置）。",
                     "使用模型发布时的配置文件（转换或量化后的副本必须保留 rope_scaling、eos_token_id、torch_dtype 和 MoE 设置），"
                     "并让并行数能整除注意力头数和专家数。",
                     "如果该模型或量化类型不在你所用 MindIE 版本的模型支持列表中，换用支持它的版本。"]),
        no_match="[2026-04-23 10:00:00.000+08:00] [1024] [1030] [llm] [INFO] [config_deepseek_v3.py:160] : topk_method is noaux_tc"),
    "mindie.request-rejected": dict(
        title="MindIE rejected one inference request: its content is not valid for this model or server",
        layer="framework", component="the client request (MindIE input builder / multimodal / tool-call parsing)",
        severity="error", priority=50,
        cause=("The request itself failed a check: an empty conversation or one without a user turn, an unknown chat "
               "role, a `force` field of a tool choice that is not a boolean, a multimodal item of an unsupported "
               "type, size or path, a model reply that the tool-call parser cannot read, or a malformed version / "
               "id string. The server goes on serving other requests; only this request fails."),
        fix=["Fix what the client sends (messages, roles, tools, multimodal items): the message names the field.",
             "For multimodal inputs keep images and videos within the size limits of the release and pass them as a "
             "supported type (an existing local path, a URL the server may fetch, base64).",
             "If a tool-call reply cannot be parsed, check that the chat template and tool-call parser match the model."],
        zh=dict(title="MindIE 拒绝了一条推理请求：请求内容对该模型或服务无效",
                cause=("请求本身没有通过检查：会话为空或没有用户轮次、未知的对话角色、工具选择的 `force` 字段不是布尔值、"
                       "多模态条目的类型、大小或路径不受支持、工具调用解析器读不懂模型的回复，或者格式错误的版本 / id 字符串。"
                       "服务会继续处理其他请求，只有这条请求失败。"),
                fix=["修正客户端发送的内容（messages、角色、tools、多模态条目）：报错写明了字段。",
                     "多模态输入要在该版本的大小限制之内，并以支持的形式传入（存在的本地路径、服务可访问的 URL、base64）。",
                     "如果工具调用的回复无法解析，确认对话模板和工具调用解析器与模型匹配。"]),
        no_match="[2026-04-23 10:00:00.000+08:00] [1024] [1030] [llm] [INFO] [input_builder.py:110] : The conversation has 3 messages"),
    "mindie.layerwise-disaggregation-failed": dict(
        title="MindIE layerwise (edge-cloud) disaggregation: the lwd rank table is wrong or a peer node does not answer",
        layer="framework", component="MindIE layerwise disaggregation (lwd_rank_table_file, edge / cloud nodes)",
        severity="error", priority=45,
        cause=("In layerwise (edge-cloud) disaggregated deployment the nodes find each other through the "
               "lwd_rank_table_file and then exchange control messages over TCP. Either the rank table is missing an "
               "item or contradicts itself (server_count against server_list, a device without net_position, the master "
               "listed before its slaves, dp_num 0), or a node did not answer within the timeout: the peer is down, "
               "still starting, or unreachable on the address and port of the rank table."),
        fix=["Check the lwd_rank_table_file against the deployment guide of your release: server_count equals the "
             "entries of server_list, every device has net_position, the slave entries come before the master, and "
             "the IPs and ports are those of the nodes.",
             "For a timeout, look at the log of the peer it names (edge or cloud, master or slave) for its own first "
             "error, and test the address and port from this node (`nc -zv <ip> <port>`).",
             "Start all nodes of the deployment within the timeout, or start the side that waits last."],
        zh=dict(title="MindIE 分层（边云）分离部署：lwd rank table 有误，或对端节点没有应答",
                cause=("在分层（边云）分离部署中，各节点通过 lwd_rank_table_file 找到彼此，再通过 TCP 交换控制消息。要么 rank table "
                       "缺少配置项或前后矛盾（server_count 与 server_list 不一致、某个 device 没有 net_position、master 写在 slave "
                       "之前、dp_num 为 0），要么某个节点在超时时间内没有应答：对端已挂、仍在启动，或按 rank table 中的地址和端口不可达。"),
                fix=["对照所用版本的部署指南检查 lwd_rank_table_file：server_count 等于 server_list 的条目数，每个 device 都有 "
                     "net_position，slave 条目写在 master 之前，IP 和端口就是各节点的。",
                     "如果是超时，查看报错指明的对端（边侧或云侧、master 或 slave）日志中它自己的第一条错误，并在本节点测试该地址和端口"
                     "（`nc -zv <ip> <port>`）。",
                     "让部署的所有节点在超时时间内启动，或者最后再启动需要等待的一侧。"]),
        no_match="[2026-04-23 10:00:00.000+08:00] [1024] [1030] [llm] [INFO] [communication.py:300] : [layerwiseDisaggregated] tcp connection established"),
    "mindie.host-environment-check-failed": dict(
        title="MindIE could not use a host resource it needs (shared memory, home or log directory, sockets, worker processes)",
        layer="driver", component="container / host set-up of the MindIE service", severity="error", priority=60,
        cause=("A start-up or runtime check of MindIE failed on the host or in the container: /dev/shm is a symbolic "
               "link, not accessible or too small (the server, the tokenizer pool and the workers exchange data "
               "through it), the home or log directory does not exist, cannot be resolved or its path is too long, a "
               "socket could not be created, or the tokenizer / Python worker subprocesses could not be started (a "
               "process limit, a Python environment without mindie_llm)."),
        fix=["In the container check /dev/shm: `df -h /dev/shm` and `ls -ld /dev/shm` must show a writable tmpfs that "
             "is not a link and is large enough (docker `--shm-size=16g` or more, or `--ipc=host`).",
             "Check HOME and the log path: `echo $HOME; ls -ld $HOME` and MINDIE_LOG_PATH (an existing, writable "
             "directory, shorter than the limit the message prints).",
             "Check the process and file limits (`ulimit -u`, `ulimit -n`) and that the daemon starts the Python "
             "environment that has mindie_llm (`which python3`, `pip show mindie_llm`)."],
        zh=dict(title="MindIE 无法使用所需的主机资源（共享内存、home 或日志目录、socket、worker 进程）",
                cause=("MindIE 在主机或容器上的一项启动或运行时检查失败：/dev/shm 是软链接、无法访问或太小（服务、tokenizer "
                       "进程池和 worker 通过它交换数据），home 或日志目录不存在、无法解析或路径过长，无法创建 socket，或者 "
                       "tokenizer / Python worker 子进程无法启动（进程数限制、Python 环境里没有 mindie_llm）。"),
                fix=["在容器里检查 /dev/shm：`df -h /dev/shm` 和 `ls -ld /dev/shm` 应显示一个可写、不是软链接且足够大的 tmpfs"
                     "（docker `--shm-size=16g` 或更大，或 `--ipc=host`）。",
                     "检查 HOME 和日志路径：`echo $HOME; ls -ld $HOME` 以及 MINDIE_LOG_PATH（存在、可写，且短于报错打印的上限）。",
                     "检查进程数和文件数限制（`ulimit -u`、`ulimit -n`），并确认 daemon 启动的是装有 mindie_llm 的 Python 环境"
                     "（`which python3`、`pip show mindie_llm`）。"]),
        no_match="[2026-04-23 10:00:00.000+08:00] [1024] [1030] [server] [INFO] [infer_tokenizer.cpp:290] : Shared memory path checked"),
}


# A rule of the same kind outside MindIE, kept here with its siblings: vllm-ascend's Mooncake layerwise
# connector (vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py), whose per-layer
# invariants were added by vllm-project/vllm-ascend#14046 (first in v0.25.1rc1).
VLLM_ASCEND_LAYERWISE = {
    "id": "vllm-ascend.mooncake-layerwise-internal-check",
    "title": "An internal check of vllm-ascend's Mooncake layerwise connector failed (a bug in that release, not your configuration)",
    "layer": "framework",
    "component": "vllm-ascend (MooncakeLayerwiseConnector)",
    "severity": "error",
    "priority": 45,  # above vllm-ascend.internal-kv-transfer (40): the connector names its own checks
    "match": {"any": [
        {"regex": r"Mooncake layerwise reuse mapping is missing layer \d+"},
        {"regex": r"Mooncake layerwise metadata is missing physical layer \d+"},
        {"regex": r"Mooncake layer hook .*? does not belong to physical layer \d+: "},
    ]},
    "cause": ("The Mooncake layerwise connector keeps its own map from the model's attention layers to the physical KV "
              "cache layers and storage slots it sends layer by layer; here a layer it was asked to save or reuse is "
              "not in that map, or the layer hook that fired belongs to another physical layer. No setting reaches "
              "these checks directly: an internal check of vllm-ascend's MooncakeLayerwiseConnector failed, a bug of "
              "the release you run (these checks came with the layerwise SFA transfer change, vllm-ascend#14046, "
              "first released in v0.25.1rc1), not your configuration."),
    "fix": [
        "Upgrade vllm-ascend to the newest release of your vllm line and retry; if it persists, use the non-layerwise "
        "Mooncake connector (`kv_connector` MooncakeConnectorV1 in `--kv-transfer-config`) for this model.",
        "Report it to vllm-project/vllm-ascend with the traceback, `pip show vllm vllm-ascend`, the "
        "`--kv-transfer-config` of both prefill and decode instances, the model and its parallel sizes.",
    ],
    "references": ["https://github.com/vllm-project/vllm-ascend/pull/14046",
                   "https://github.com/vllm-project/vllm-ascend/blob/main/vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py"],
    "confidence": "likely",
    "printed_by": [
        "vllm-project/vllm-ascend:vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py#L1302",
        "vllm-project/vllm-ascend:vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py#L1324",
        "vllm-project/vllm-ascend:vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py#L1834",
        "vllm-project/vllm-ascend:vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py#L1836",
        "vllm-project/vllm-ascend:vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py#L1859",
        "vllm-project/vllm-ascend:vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py#L1866",
    ],
    "zh": {
        "title": "vllm-ascend 的 Mooncake 分层连接器内部检查失败（该版本的缺陷，不是你的配置问题）",
        "cause": ("Mooncake 分层连接器自己维护一张从模型注意力层到物理 KV cache 层和存储槽位的映射，并按层发送；这里要保存或复用的层"
                  "不在映射中，或者触发的层钩子属于另一个物理层。没有任何设置会直接触发这些检查：vllm-ascend 的 "
                  "MooncakeLayerwiseConnector 内部检查失败，这是你所用版本的缺陷（这些检查随分层 SFA 传输改动 vllm-ascend#14046 "
                  "引入，首次发布于 v0.25.1rc1），而不是你的配置问题。"),
        "fix": [
            "把 vllm-ascend 升级到所用 vllm 版本线的最新发布后重试；仍然出现时，对该模型改用非分层的 Mooncake 连接器"
            "（`--kv-transfer-config` 中 `kv_connector` 设为 MooncakeConnectorV1）。",
            "向 vllm-project/vllm-ascend 反馈，附上调用栈、`pip show vllm vllm-ascend`、prefill 和 decode 实例的 "
            "`--kv-transfer-config`、模型及其并行设置。",
        ],
    },
    "examples": {
        "match": [
            {"text": "(EngineCore_DP0 pid=626) ERROR 12-05 07:51:00 [core.py:946] RuntimeError: Mooncake layerwise metadata is missing physical layer 12",
             "source": "rendered from vllm-project/vllm-ascend:vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py#L1834"},
            {"text": "RuntimeError: Mooncake layer hook 'model.layers.3.self_attn.attn' does not belong to physical layer 2: ['model.layers.2.self_attn.attn']",
             "source": "rendered from vllm-project/vllm-ascend:vllm_ascend/distributed/kv_transfer/kv_p2p/mooncake_layerwise_connector.py#L1836"},
        ],
        "no_match": ["INFO 12-05 07:51:00 [mooncake_layerwise_connector.py:1330] Waiting for Mooncake transfer to release physical KV slot 3"],
    },
}


def render(entry: dict) -> str:
    """A log line as MindIE prints it: its logger prefix (the C++ ULOG / MINDIE_LLM_LOG form, or the Python
    logger's "file.py-line" form), the error code the call passes, then the message with every field filled."""
    text = PH.sub("7", entry["template"])
    path = entry["path"]
    code = re.search(r"\[(MIE0\w+)\]", entry.get("kind") or "")
    if code and code.group(1) not in text:
        text = f"[{code.group(1)}] {text}"
    name = Path(path).name
    if path.endswith(".py"):
        return f"[2026-04-23 10:00:00,000] [1024] [281473145560576] [llm] [ERROR] [{name}-{entry['line']}] : {text}"
    module = "server" if path.startswith("src/server") else "llm"
    return f"[2026-04-23 10:00:00.000+08:00] [1024] [1030] [{module}] [ERROR] [{name}:{entry['line']}] : {text}"


def internal_rule(rid: str, info: dict, entries: list[dict]) -> dict:
    examples = sorted(entries, key=lambda e: -len(" ".join(pieces(e["template"]))))[:2]
    return {
        "id": rid,
        "title": f"An internal check of {info['short']} failed (a bug in that MindIE release, not your configuration)",
        "layer": "framework",
        "component": info["name"],
        "severity": "error",
        "priority": 22,
        "match": {"any": [{"regex": p} for p in dict.fromkeys(pattern(e["template"]) for e in entries)]},
        "cause": (f"{info['short']} stopped at one of its own consistency checks ({info['what']}). No setting in "
                  "config.json and no field of a request reaches these checks directly: an internal check of "
                  f"{info['short']} failed, which is a bug in the MindIE release you run, not your configuration. "
                  "When another error comes just before it, that error is the cause and this check its consequence."),
        "fix": [EARLIER, UPGRADE + " " + info["workaround"], ATTACH],
        "references": [f"https://gitcode.com/{REPO}", f"https://github.com/{REPO}"],
        "confidence": "likely",
        "printed_by": [f"{REPO}:{e['path']}#L{e['line']}" for e in entries],
        "zh": {
            "title": f"{info['zh_short']} 的内部检查失败（该 MindIE 版本的缺陷，不是你的配置问题）",
            "cause": (f"{info['zh_short']} 停在了它自身的一致性检查上（{info['what_zh']}）。config.json 中的设置和请求中的字段都不会直接"
                      f"触发这些检查：{info['zh_short']} 的内部检查失败，这是你所用 MindIE 版本的缺陷，而不是你的配置问题。"
                      "如果它之前紧挨着另一个错误，那个错误才是原因，这里只是后果。"),
            "fix": [EARLIER_ZH, UPGRADE_ZH + info["workaround_zh"], ATTACH_ZH],
        },
        "examples": {
            "match": [{"text": render(e), "source": f"rendered from {REPO}:{e['path']}#L{e['line']}"} for e in examples],
            "no_match": ["[2026-04-23 10:00:00.000+08:00] [1024] [1030] [server] [INFO] [endpoint.cpp:40] : "
                         "Init infer model instance success"],
        },
    }


def hand(rid: str, info: dict, entries: list[dict]) -> dict:
    examples = sorted(entries, key=lambda e: -len(" ".join(pieces(e["template"]))))[:2]
    return {
        "id": rid, "title": info["title"], "layer": info["layer"], "component": info["component"],
        "severity": info["severity"], "priority": info["priority"],
        "match": {"any": [{"regex": p} for p in dict.fromkeys(pattern(e["template"]) for e in entries)]},
        "cause": info["cause"], "fix": info["fix"],
        "references": [f"https://gitcode.com/{REPO}", f"https://github.com/{REPO}"],
        "confidence": "likely",
        "printed_by": [f"{REPO}:{e['path']}#L{e['line']}" for e in entries],
        "zh": info["zh"],
        "examples": {
            "match": [{"text": render(e), "source": f"rendered from {REPO}:{e['path']}#L{e['line']}"} for e in examples],
            "no_match": [info["no_match"]],
        },
    }


def main() -> None:
    doc = yaml.safe_load(CATALOG.read_text(encoding="utf-8"))
    by_rule: dict[str, list[dict]] = {}
    for e in doc["entries"]:
        if e.get("rule") and not e["rule"].startswith("mindie.internal-check-") and e["rule"] not in HAND \
                and e["template"] not in SPECIFIC:
            continue  # covered by a rule of its own
        excluded = e.get("excluded")
        if excluded and excluded.startswith(KEEP_EXCLUDED):
            continue
        target = hand_rule(e["template"])
        if excluded or e.get("rule") or target == "internal":
            target = target if target and target != "internal" else internal_component(e["path"])
        if target is None:
            continue
        e.pop("rule", None)
        e.pop("excluded", None)
        if target in SPECIFIC.values():
            e["rule"] = target
            continue
        e.pop("excluded", None)
        if specific(e["template"]):
            e["rule"] = target
            by_rule.setdefault(target, []).append(e)
        else:
            e["excluded"] = R_GENERIC
    rules = [internal_rule(rid, info, by_rule[rid]) for rid, info in COMPONENTS.items() if rid in by_rule]
    rules += [hand(rid, info, by_rule[rid]) for rid, info in HAND.items() if rid in by_rule]
    rules.append(VLLM_ASCEND_LAYERWISE)
    header = ("# yaml-language-server: $schema=../docs/rule.schema.json\n"
              "# Family: MINDIE (internal checks and config / request / host checks; and the internal checks of\n"
              "# vllm-ascend's Mooncake layerwise connector), written by\n"
              "# tools/catalog/mindie_internal_rules.py from catalogs/mindie.yaml: every pattern is one catalog\n"
              "# entry's message (literal text kept, each {} / %s a lazy .*?). Edit the script, not this file.\n")
    TARGET.write_text(header + yaml.safe_dump({"rules": rules}, sort_keys=False, allow_unicode=True, width=120),
                      encoding="utf-8")
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120)
    first = CATALOG.read_text(encoding="utf-8").splitlines()[0]
    CATALOG.write_text(first + "\n" + text, encoding="utf-8")
    for r in rules:
        print(f"{r['id']}: {len(r['match']['any'])} patterns")


if __name__ == "__main__":
    main()
