"""Multi-rank, multi-node bundles: the cluster verdict, incidents, and the same report whatever the
number of jobs or the way summaries are merged.

The bundles come from ``benchmarks/bundlegen.py``: N nodes x M ranks of vLLM / torch_npu / CANN
output with a first failure planted on one rank (real lines from the cause rule's examples) and
the timeouts real incidents show on the other ranks afterwards; :class:`Truth` says what was planted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.bundlegen import make_bundle, make_unrelated
from tests.conftest import CORPUS
from triage import analyze
from triage.cli.app import app

runner = CliRunner()


def _dump(report) -> dict:
    return report.model_dump(exclude={"matcher"})


@pytest.fixture(scope="module")
def bundles(tmp_path_factory, builtin_rules):
    """Bundles generated once for this module, by name."""
    made: dict[str, tuple] = {}

    def get(name: str, **kwargs):
        if name not in made:
            root = tmp_path_factory.mktemp("bundles") / name
            if kwargs.pop("unrelated", False):
                truth = make_unrelated(root, rules=builtin_rules, **kwargs)
            else:
                truth = make_bundle(root, rules=builtin_rules, **kwargs)
            made[name] = (root, truth)
        return made[name]

    return get


# -- the first failure --------------------------------------------------------------------------
FIRST_FAILURES = [
    # (name, generator arguments): the first failing rank is never in the first file
    ("ranks-hbm", dict(layout="ranks", cause="hw.hbm-multi-bit-ecc")),
    ("plog-port-down", dict(layout="plog", cause="hw.network-port-down")),
    ("plog-hbm", dict(layout="plog", cause="hw.hbm-multi-bit-ecc")),
    ("interleaved-vector-core", dict(layout="interleaved", cause="op.vector-core-exception")),
    ("ranks-oom-4x4", dict(layout="ranks", nodes=4, ranks_per_node=4, first_rank=9,
                           cause="memory.npu-oom-caching-allocator")),
    # a ring all-reduce: each waiting rank names its neighbour, a healthy rank that also waits
    ("ranks-hbm-ring", dict(layout="ranks", cause="hw.hbm-multi-bit-ecc", peers="ring")),
]


@pytest.mark.parametrize(("name", "kwargs"), FIRST_FAILURES, ids=[n for n, _ in FIRST_FAILURES])
def test_first_failing_rank_and_node_are_named(bundles, name, kwargs):
    root, truth = bundles(name, **kwargs)
    report = analyze(root)
    assert report.root_cause is not None and report.root_cause.rule_id == truth.cause
    cluster = report.cluster
    assert cluster is not None
    first = cluster.first_failure
    assert first is not None
    assert (first.rank, first.node, first.rule_id) == (truth.first_rank, truth.first_node, truth.cause), first
    assert cluster.ranks == list(range(truth.world_size))
    assert cluster.world_size == truth.world_size
    if truth.layout != "interleaved":
        assert cluster.nodes == [f"node-{k}" for k in range(truth.nodes)]
    assert not cluster.common
    assert cluster.suspects == []  # the ranks that timed out waiting are not suspects: the cause is known
    # the cause's occurrences are all on the failing rank
    cause = next(f for f in report.findings if f.rule_id == truth.cause)
    assert cause.ranks == [truth.first_rank]


@pytest.mark.parametrize(("name", "kwargs"), FIRST_FAILURES[:1] + FIRST_FAILURES[3:4],
                         ids=[FIRST_FAILURES[0][0], FIRST_FAILURES[3][0]])
def test_other_ranks_timeouts_are_symptoms_of_the_first_failure(bundles, name, kwargs):
    root, truth = bundles(name, **kwargs)
    report = analyze(root)
    others = [r for r in range(truth.world_size) if r != truth.first_rank]
    assert truth.symptom_ranks == others
    by_rule = {s.rule_id: s for s in report.cluster.symptoms}
    for rule_id in truth.symptoms:  # the EI0002 notify wait, the torch_npu HCCL watchdog
        assert rule_id in by_rule, (rule_id, report.cluster.symptoms)
        assert by_rule[rule_id].ranks == others
        assert by_rule[rule_id].caused_by == truth.cause
        finding = next(f for f in report.findings if f.rule_id == rule_id)
        assert finding.suppressed_by == truth.cause
        assert finding.ranks == others
    # one incident: the cause and every rank that timed out because of it
    assert len(report.incidents) == 1, report.incidents
    incident = report.incidents[0]
    assert incident.root_cause == truth.cause
    assert sorted({o.rank for o in incident.origins if o.rank is not None}) == list(range(truth.world_size))
    assert set(truth.symptoms) <= set(incident.symptoms)


def test_every_rank_failing_the_same_way_is_common(bundles):
    root, truth = bundles("common-oom", layout="ranks", cause="memory.npu-oom-caching-allocator", common=True)
    report = analyze(root)
    assert report.root_cause.rule_id == truth.cause
    assert report.root_cause.ranks == list(range(truth.world_size))
    cluster = report.cluster
    assert cluster.common is True
    assert cluster.ranks == list(range(truth.world_size))
    assert cluster.first_failure.rule_id == truth.cause
    assert (cluster.first_failure.rank, cluster.first_failure.node) == (truth.first_rank, truth.first_node)
    assert cluster.suspects == []


def test_not_common_when_one_rank_failed(bundles):
    root, truth = bundles("ranks-hbm", **FIRST_FAILURES[0][1])
    assert analyze(root).cluster.common is False


def test_silent_ranks_are_suspects(bundles):
    root, truth = bundles("silent", layout="ranks", silent=[6, 13])
    report = analyze(root)
    assert truth.cause is None and truth.silent == [6, 13]
    cluster = report.cluster
    assert cluster.world_size == truth.world_size
    # the ranks that printed nothing are the suspects, not the ranks that timed out waiting for them
    assert sorted(s.rank for s in cluster.suspects) == truth.silent
    assert cluster.common is False
    # every reporting rank only waited: no wait is named the first failure
    assert cluster.waits_only is True and cluster.first_failure is None
    for rule_id in truth.symptoms:
        finding = next(f for f in report.findings if f.rule_id == rule_id)
        assert finding.ranks == truth.symptom_ranks


def test_unrelated_logs_are_separate_incidents(bundles):
    root, truth = bundles("unrelated", unrelated=True)
    report = analyze(root)
    assert len(report.incidents) == 2, report.incidents
    got = {}
    for incident in report.incidents:
        files = {o.file for o in incident.origins}
        assert len(files) == 1, incident
        got[files.pop()] = incident.root_cause
    assert got == truth.causes
    assert report.cluster is None  # no ranks, no nodes
    result = runner.invoke(app, ["analyze", str(root)])
    assert result.exit_code == 1, result.output
    for cause in truth.causes.values():  # the text report names both root causes
        title = next(f.title for f in report.findings if f.rule_id == cause)
        assert cause in result.stdout and title in result.stdout


# -- the same report however it is read ---------------------------------------------------------
@pytest.mark.parametrize("layout", ["interleaved", "plog"])
def test_jobs_give_the_identical_report(bundles, monkeypatch, layout):
    import triage.run.parallel as parallel
    from triage.run.feed import expand_inputs

    root, truth = bundles(f"jobs-{layout}", layout=layout, lines_per_rank=1500, seed=3)
    serial = analyze(root, jobs=1)
    monkeypatch.setattr(parallel, "CHUNK", 64 << 10)
    sources, _ = expand_inputs([str(root)])
    pieces = parallel.plan(sources)
    assert len(pieces) > len(sources)  # several byte ranges of the large files
    one = analyze(root, jobs=1)
    grouped = []
    batches = parallel.batches
    monkeypatch.setattr(parallel, "batches", lambda p, jobs: grouped.append(len(p)) or batches(p, jobs))
    two = analyze(root, jobs=2)
    assert _dump(two) == _dump(one)
    assert grouped == [len(pieces)]  # the pieces went to the workers through batches()
    # the workers got the pieces in groups (several round trips fewer), every piece once, in order
    groups = parallel.batches(pieces, 2)
    assert 1 < len(groups) < len(pieces)
    assert [i for g in groups for i in g] == list(range(len(pieces)))
    # and cutting the files into pieces changes nothing either
    assert _dump(one) == _dump(serial)
    assert one.root_cause.rule_id == truth.cause


def test_batches_group_small_pieces_and_keep_large_ones_alone(tmp_path):
    from triage.inputs.sources import Source
    from triage.run.parallel import Piece, batches

    def pieces(n, size):
        out = []
        for i in range(n):
            path = tmp_path / f"{n}-{size}-{i}.log"
            path.write_bytes(b"x" * size)
            out.append(Piece(Source(path.name, str(path))))
        return out

    small = batches(pieces(512, 1000), 2)  # 512 files of 1 kB: 16 tasks of 32 files
    assert len(small) == 16 and {len(g) for g in small} == {32}
    assert [i for g in small for i in g] == list(range(512))
    assert batches(pieces(16, 200_000), 2) == [[i] for i in range(16)]  # large files: one task each
    assert batches([], 2) == []


def test_summaries_per_node_merge_to_the_identical_report(bundles, tmp_path):
    root, truth = bundles("ranks-hbm", **FIRST_FAILURES[0][1])
    paths = []
    for k in range(truth.nodes):
        node = f"node-{k}"
        result = runner.invoke(app, ["analyze", str(root / node), "--format", "summary", "--node", node])
        assert result.exit_code == 0, result.output
        path = tmp_path / f"{node}.json"
        path.write_text(result.stdout)
        paths.append(str(path))
    merged = runner.invoke(app, ["merge", *paths, "--format", "json"])
    whole = runner.invoke(app, ["analyze", str(root), "--format", "json"])
    assert merged.exit_code == whole.exit_code == 1, merged.output
    a, b = json.loads(merged.stdout), json.loads(whole.stdout)
    a.pop("matcher", None)
    b.pop("matcher", None)
    assert a == b
    assert a["cluster"]["first_failure"]["rank"] == truth.first_rank
    assert a["cluster"]["first_failure"]["node"] == truth.first_node


def test_generator_is_deterministic(tmp_path, builtin_rules):
    a = make_bundle(tmp_path / "a", rules=builtin_rules, lines_per_rank=120, nodes=1, ranks_per_node=4)
    b = make_bundle(tmp_path / "b", rules=builtin_rules, lines_per_rank=120, nodes=1, ranks_per_node=4)
    for fa, fb in zip(a.files, b.files, strict=True):
        assert Path(fa).read_bytes() == Path(fb).read_bytes()


# -- origins in a real multi-rank log -----------------------------------------------------------
def test_origins_of_a_real_two_rank_log():
    """vllm-project/vllm-ascend#672 (corpus/chain-dp-ep-phyid-two-ranks): two DP ranks, each on its
    own NPU 0, print the same failure with torchrun's ``[rankN]:`` prefix and torch_npu's
    ``(PID:..., Device:0, RankID:N)`` header."""
    log = CORPUS / "chain-dp-ep-phyid-two-ranks" / "log.txt"
    report = analyze(log)
    assert report.root_cause.rule_id == "hccl.device-id-mapping-error"
    assert report.root_cause.ranks == [0, 1]
    by_line = {e.line: e.origin for f in report.findings for e in f.evidence}
    assert (by_line[3].rank, by_line[3].pid, by_line[3].device) == (0, 540988, 0)
    assert (by_line[15].rank, by_line[15].pid, by_line[15].device) == (1, 540989, 0)
    assert (by_line[5].rank, by_line[5].pid) == (0, 540988)  # EE9999: [PID: 540988] ...
    assert (by_line[17].rank, by_line[17].pid) == (1, 540989)
    assert report.cluster.ranks == [0, 1]
    assert report.cluster.common is True  # both ranks failed the same way
    assert report.cluster.first_failure.rank == 0


def test_a_plog_line_takes_the_rank_its_pid_states_elsewhere():
    """Ascend/pytorch issue (corpus/hw-device-mem-uce-training): rank 5's UCE is printed twice, once
    with torchrun's ``[rank5]:`` and once by CANN as ``RUNTIME(77120,python)`` with only the pid;
    torch_npu's ``(PID:77120, Device:5, RankID:5)`` ties that pid to rank 5. The first failure is then
    rank 5, and rank 3's watchdog timeout ten minutes later is its symptom."""
    report = analyze(CORPUS / "hw-device-mem-uce-training" / "log.txt")
    assert report.root_cause.rule_id == "hw.device-mem-uce"
    assert report.root_cause.ranks == [5]
    by_line = {e.line: e.origin for f in report.findings for e in f.evidence}
    assert (by_line[8].rank, by_line[8].pid) == (5, 77120)  # the plog line: rank from its pid
    ff = report.cluster.first_failure
    assert (ff.rank, ff.rule_id) == (5, "hw.device-mem-uce")
    watchdog = next(s for s in report.cluster.symptoms if s.rule_id == "hccl.watchdog-exception")
    assert (watchdog.ranks, watchdog.caused_by) == ([3], "hw.device-mem-uce")


def test_a_pid_takes_no_rank_from_another_file_of_an_unknown_node_nor_when_it_had_two(tmp_path):
    uce = ("[ERROR] RUNTIME(4242,python):2025-05-11-02:14:51.101.512 [error_message_manage.cc:65]4243 "
           "FuncErrorReason:rtStreamSynchronize execution failed, reason=device mem error")
    tie = "[rank{r}]: [ERROR] 2025-05-11-02:14:50 (PID:4242, Device:{r}, RankID:{r}) ERR00100 PTA call acl api failed"
    (tmp_path / "a.log").write_text(tie.format(r=2) + "\n" + uce + "\n", encoding="utf-8")
    (tmp_path / "b.log").write_text(uce + "\n", encoding="utf-8")  # another host's process 4242
    (tmp_path / "c.log").write_text(tie.format(r=1) + "\n" + tie.format(r=6) + "\n" + uce + "\n", encoding="utf-8")
    for name, rank in (("a.log", 2), ("b.log", None), ("c.log", None)):
        report = analyze(tmp_path / name)
        uce_finding = next(f for f in report.findings if f.rule_id == "hw.device-mem-uce")
        assert [e.origin.rank for e in uce_finding.evidence] == [rank], name
        assert uce_finding.ranks == ([] if rank is None else [rank]), name
    both = analyze([tmp_path / "a.log", tmp_path / "b.log"])
    uce_finding = next(f for f in both.findings if f.rule_id == "hw.device-mem-uce")
    assert [(e.file.rsplit("/", 1)[-1], e.origin.rank) for e in uce_finding.evidence] == [("a.log", 2), ("b.log", None)]


def test_a_rank_less_count_takes_no_rank_when_several_processes_share_it(tmp_path):
    uce = ("[ERROR] RUNTIME({pid},python):2025-05-11-02:14:{s:02d}.101.512 [error_message_manage.cc:65]1 "
           "FuncErrorReason:rtStreamSynchronize execution failed, reason=device mem error")
    tie = "[ERROR] 2025-05-11-02:14:00 (PID:4242, Device:2, RankID:2) ERR00100 PTA call acl api failed"
    lines = [tie] + [uce.format(pid=4242, s=1)] * 3 + [uce.format(pid=5555, s=2)] * 20 + [uce.format(pid=4242, s=3)]
    (tmp_path / "mixed.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = analyze(tmp_path / "mixed.log")
    f = next(f for f in report.findings if f.rule_id == "hw.device-mem-uce")
    assert f.count == 24 and f.ranks == []  # the 24 lines are two processes': not all rank 2's
    assert {(e.origin.pid, e.origin.rank) for e in f.evidence} == {(4242, 2)}  # a line of pid 4242 is

    # a Ray relay tag's pid is not the relayed process's: the pair comes from torch_npu's header only
    relay = ["(TaskRunner pid=3000) [ERROR] 2025-05-11-02:14:00 (PID:77120, Device:5, RankID:5) ERR00100 PTA call "
             "acl api failed", "(TaskRunner pid=3000) " + uce.format(pid=77121, s=1)]
    (tmp_path / "relay.log").write_text("\n".join(relay) + "\n", encoding="utf-8")
    f = next(f for f in analyze(tmp_path / "relay.log").findings if f.rule_id == "hw.device-mem-uce")
    assert [(e.origin.pid, e.origin.rank) for e in f.evidence] == [(3000, None)]


def test_an_unexplained_line_takes_its_pids_rank_too(tmp_path):
    tie = "[ERROR] 2025-05-11-02:14:00 (PID:77120, Device:5, RankID:5) ERR00100 PTA call acl api failed"
    odd = "[ERROR] RUNTIME(77120,python):2025-05-11-02:14:51.101.512 [odd.cc:1]77321 a failure no rule knows: zqx"
    (tmp_path / "u.log").write_text(tie + "\n" + odd + "\n", encoding="utf-8")
    report = analyze(tmp_path / "u.log")
    line = next(u for u in report.unrecognised if "zqx" in u.text)
    assert (line.origin.pid, line.origin.rank) == (77120, 5)


def test_origins_of_vllm_worker_tags():
    """vllm-project/vllm-ascend#2248 (corpus/hccl-store-key-wait-timeout-gloo): ``(VllmWorker rank=N pid=P)``."""
    log = CORPUS / "hccl-store-key-wait-timeout-gloo" / "log.txt"
    report = analyze(log)
    by_rule = {f.rule_id: f for f in report.findings}
    store = by_rule["hccl.store-key-wait-timeout"].evidence[0].origin
    assert (store.rank, store.pid) == (0, 4189097)
    died = by_rule["generic.worker-process-died"].evidence[0].origin
    assert (died.rank, died.pid) == (2, 4189101)
    assert report.cluster.ranks == [0, 2]


# -- a peer wait whose peer failed with an error no rule knows --------------------------------------
def test_the_peer_a_wait_names_leads_when_its_error_came_first():
    """vllm-project/vllm-ascend#1565 (corpus/unexplained-vllm-ascend-310p-tp2-peer-unpickling): the
    worker ``(VllmWorkerProcess pid=176981)`` says it is ``rank 1 in world size 2``; it fails first
    with an UnpicklingError no rule knows, and rank 0 fails 119 s later with EI0006 and ``Transport
    init error ... dst_rank[1]``. The report leads with rank 1's line; rank 0's HCCL errors are its
    symptoms."""
    report = analyze(CORPUS / "unexplained-vllm-ascend-310p-tp2-peer-unpickling" / "log.txt")
    root = report.root_cause
    assert (root.rule_id, root.first_line, root.ranks) == ("unexplained.python-exception", 68, [1])
    assert "_pickle.UnpicklingError" in root.title
    assert "rank 1" in root.cause and "hccl.transport-init-error" in root.cause
    assert [(e.line, e.origin.pid, e.origin.rank) for e in root.evidence] == [(68, 176981, 1)]  # not rank 0's
    by_rule = {f.rule_id: f for f in report.findings}
    assert by_rule["hccl.transport-init-error"].suppressed_by == "unexplained.python-exception"
    assert by_rule["hccl.socket-establish-timeout"].suppressed_by == "unexplained.python-exception"
    # the driver's wrappers in the wait's error block are the wait's own
    assert by_rule["generic.err00100-acl-api-failed"].suppressed_by == "hccl.transport-init-error"
    zh = analyze(CORPUS / "unexplained-vllm-ascend-310p-tp2-peer-unpickling" / "log.txt", lang="zh").root_cause
    assert zh.rule_id == "unexplained.python-exception" and "rank 1" in zh.cause and "对端" in zh.cause


_WAIT = "".join(f"ERROR 07-01 00:40:04 [engine.py:458] {line}\n" for line in (
    "[ERROR] 2025-07-01-00:40:04 (PID:500, Device:0, RankID:-1) ERR01100 OPS call acl api failed.",
    "EI0006: [PID: 500] 2025-07-01-00:40:04.135.732 Getting socket times out. Reason: Remote Rank did not send "
    "the data in time.",
    "        Transport init error. Reason: [Create][DestLink]Create Dest error! createLink para:rank[0]-"
    "localUserrank[0]-localIpAddr[10.0.0.1], dst_rank[1]-remoteUserrank[1]-remote_ip_addr[10.0.0.1]"))
_PEER = ("(VllmWorkerProcess pid=501) INFO 07-01 00:37:33 [parallel_state.py:1065] rank 1 in world size 2 is "
         "assigned as DP rank 0, PP rank 0, TP rank 1, EP rank 1\n"
         "(VllmWorkerProcess pid=501) ERROR 07-01 {t} [multiproc_worker_utils.py:239] ValueError: zqx peer broke\n")


@pytest.mark.parametrize("when, leads", [("00:38:05", True), ("00:41:00", False)])
def test_a_wait_yields_only_to_an_earlier_error_of_its_peer(tmp_path, when, leads):
    (tmp_path / "one.log").write_text(_PEER.format(t=when) + _WAIT, encoding="utf-8")
    report = analyze(tmp_path / "one.log")
    assert report.root_cause.rule_id == ("unexplained.python-exception" if leads else "hccl.transport-init-error")
    if leads:
        assert report.root_cause.ranks == [1]


def test_a_wait_does_not_yield_to_another_logs_rank(tmp_path):
    """Two logs of unknown nodes: rank 1 of one is not the peer ``dst_rank[1]`` the other waited for."""
    (tmp_path / "peer.log").write_text(_PEER.format(t="00:38:05"), encoding="utf-8")
    (tmp_path / "wait.log").write_text(_WAIT, encoding="utf-8")
    report = analyze([tmp_path / "peer.log", tmp_path / "wait.log"])
    assert report.root_cause.rule_id == "hccl.transport-init-error"


_API = ("(APIServer pid=47000) ERROR 07-01 00:20:11 [serving_chat.py:257] jinja2.exceptions.TemplateError: "
        "Conversation roles must alternate user/assistant\n")
_PLOG_WAIT = ("EI0006: [PID: 500] 2025-07-01-00:40:04.935.732 Getting socket times out. Reason: Remote Rank did not "
              "send the data in time.\n")
_UNTIMED_WAIT = ("        Transport init error. Reason: [Create][DestLink]Create Dest error! createLink para:rank[0]-"
                 "localUserrank[0]-localIpAddr[10.0.0.1], dst_rank[1]-remoteUserrank[1]-remote_ip_addr[10.0.0.1]\n")
_RESTART = "INFO 07-01 00:39:00 [api_server.py:1] vLLM API server version 0.9.1\n"
_NEW_RANK1 = ("(VllmWorkerProcess pid=601) INFO 07-01 00:39:10 [parallel_state.py:1065] rank 1 in world size 2 is "
              "assigned as DP rank 0, PP rank 0, TP rank 1, EP rank 1\n")


@pytest.mark.parametrize("text, root", [
    # an API server's error (a process with no rank) 20 minutes before: not the peer
    (_API + _WAIT, "hccl.transport-init-error"),
    # the wait's first occurrence has no time of its own and comes before the line
    (_PEER.splitlines(keepends=True)[0] + _UNTIMED_WAIT + _PEER.splitlines(keepends=True)[1].format(t="00:38:05")
     + _WAIT, "hccl.transport-init-error"),
    # the same second: vLLM's whole seconds against the plog's fraction are no order
    (_PEER.format(t="00:40:04") + _PLOG_WAIT, "hccl.socket-establish-timeout"),
    # rank 1 restarted as pid 601 before the wait: pid 501's error belongs to the earlier run
    (_PEER.format(t="00:38:05") + _RESTART + _NEW_RANK1 + _WAIT, "hccl.transport-init-error"),
    # more than an hour before the wait
    (_PEER.format(t="00:38:05").replace("00:37:33", "23:00:00").replace(" 07-01 00:38:05", " 06-30 23:10:00") + _WAIT,
     "hccl.transport-init-error"),
    # a Kubernetes prefix: the pair is keyed by the line's own node, as the error line is
    ("".join(f"[pod/vllm-0/vllm] {line}\n" for line in (_PEER.format(t="00:38:05") + _WAIT).splitlines()),
     "unexplained.python-exception"),
])
def test_which_earlier_lines_a_wait_yields_to(tmp_path, text, root):
    (tmp_path / "w.log").write_text(text, encoding="utf-8")
    report = analyze(tmp_path / "w.log")
    assert report.root_cause.rule_id == root
    if root.startswith("unexplained."):
        assert report.root_cause.ranks == [1]


def test_the_pid_rank_pairs_survive_a_split_file_and_a_summary_merge(tmp_path, monkeypatch):
    """The pairs a file's rank assignment lines state are in its summary and kept when the file is
    read as byte ranges (``--jobs``): here the assignment line is in a later piece than the first."""
    from triage.run import parallel

    filler = "".join(f"INFO 07-01 00:30:{i % 60:02d} [x.py:1] filler line {i}\n" for i in range(3000))
    log = tmp_path / "big.log"
    log.write_text(filler + _PEER.format(t="00:38:05") + _WAIT, encoding="utf-8")
    whole = analyze(log)
    assert whole.root_cause.rule_id == "unexplained.python-exception"
    monkeypatch.setattr(parallel, "CHUNK", 64 << 10)
    from triage.inputs.sources import expand

    pieces = parallel.plan(expand([str(log)]))
    assert len(pieces) >= 2 and pieces[0].end <= len(filler.encode())  # the pair is not in the first piece
    runner = CliRunner()
    split = runner.invoke(app, ["analyze", str(log), "-f", "summary", "--jobs", "2"])
    summary = json.loads(split.stdout)
    assert summary["files"][0]["pid_ranks"] == [[501, 1, None]]
    (tmp_path / "s.json").write_text(split.stdout, encoding="utf-8")
    merged = runner.invoke(app, ["merge", str(tmp_path / "s.json"), "-f", "json"])
    assert json.loads(merged.stdout)["root_cause"]["ranks"] == [1]


@pytest.mark.parametrize("line, pair", [
    ("(VllmWorkerProcess pid=176981) INFO 07-01 00:37:33 [parallel_state.py:1065] rank 1 in world size 2 is "
     "assigned as DP rank 0, PP rank 0, TP rank 1, EP rank 1", (176981, 1)),
    ("(VllmWorker TP1 pid=21355) INFO 08-25 09:45:01 [parallel_state.py:1102] rank 1 in world size 8 is assigned "
     "as DP rank 0, PP rank 0, TP rank 1, EP rank 1", (21355, 1)),
    ("(RayWorkerWrapper pid=1234, ip=10.0.0.2) INFO 01-01 00:00:00 [parallel_state.py:1] vllm-ascend: rank 9 in "
     "world size 16 is assigned as MLP TP rank 1", (1234, 9)),
    # the driver prints its own line untagged: no pid, no pair
    ("INFO 07-01 00:37:33 [parallel_state.py:1065] rank 0 in world size 2 is assigned as DP rank 0", None),
    # a tag later in the message is not the line's own
    ("INFO 07-01 00:37:33 [x.py:1] from (VllmWorkerProcess pid=7) rank 3 in world size 4 is assigned as DP", None),
    ("(VllmWorkerProcess pid=176981) ERROR 07-01 00:38:05 [x.py:1] rank 1 failed", None),
])
def test_pid_rank_pairs_from_vllm_rank_assignment_lines(line, pair):
    from triage.logformat.origin import pid_rank_of_line

    assert pid_rank_of_line(line) == pair


def _task_timeout(rank: int, pid: int, when: str) -> list[str]:
    """Rank ``rank``'s 107020 task timeout as torch_npu and CANN print it (Ascend/pytorch#72's form)."""
    return [
        f"[rank{rank}]:npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:506 NPU function "
        "error: AclrtSynchronizeDeviceWithTimeout, error code is 107020",
        f"[rank{rank}]:[ERROR] {when} (PID:{pid}, Device:{rank}, RankID:{rank}) ERR00100 PTA call acl api failed.",
        f"[rank{rank}]:EH9999: [PID: {pid}] {when}.362.493 wait for compute device to finish failed, runtime "
        "result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
    ]


def test_a_task_timeout_is_the_symptom_of_another_ranks_earlier_failure(tmp_path):
    """107020 (rt.task-timeout) is what a rank prints while its collective waits for a failed peer:
    rank 2's UCE half an hour before explains rank 3's timeout (Ascend/pytorch#72's maintainer: the
    cause of such timeouts is on another rank)."""
    lines = [
        "[rank2]:[ERROR] 2025-05-11-02:14:50 (PID:4242, Device:2, RankID:2) ERR00100 PTA call acl api failed.",
        "[ERROR] RUNTIME(4242,python):2025-05-11-02:14:51.101.512 [error_message_manage.cc:65]4243 "
        "FuncErrorReason:rtStreamSynchronize execution failed, reason=device mem error",
        *_task_timeout(3, 475, "2025-05-11-02:44:03"),
    ]
    (tmp_path / "t.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = analyze(tmp_path / "t.log")
    assert (report.root_cause.rule_id, report.root_cause.ranks) == ("hw.device-mem-uce", [2])
    timeout = next(f for f in report.findings if f.rule_id == "rt.task-timeout")
    assert (timeout.ranks, timeout.suppressed_by) == ([3], "hw.device-mem-uce")
    assert report.cluster.first_failure.rank == 2


_TP_CONFIG = ("(EngineCore_DP0 pid=1201) INFO 08-20 10:01:40 [core.py:93] Initializing a V1 LLM engine with config: "
              "model='/models/m', tensor_parallel_size=2, {extra}enforce_eager=False\n")
_TP_LINES = ("(VllmWorker TP1 pid=1311) ERROR 08-20 10:02:11 [multiproc_executor.py:962] ValueError: zqx the TP1 "
             "worker broke in a new way\n"
             "(VllmWorker TP0 pid=1310) ERROR 08-20 10:04:11 [multiproc_executor.py:962] EI0006: [PID: 1310] "
             "2025-08-20-10:04:11.135.732 Getting socket times out. Reason: Remote Rank did not send the data in "
             "time.\n")


@pytest.mark.parametrize("extra, ranks", [
    ("", True),  # one tensor parallel group: a worker's tp index is its rank
    ("pipeline_parallel_size=2, ", False),  # two stages: TP1 is rank 1 or 3
])
def test_a_tp_index_is_the_rank_only_when_the_job_is_one_tp_group(tmp_path, extra, ranks):
    (tmp_path / "tp.log").write_text(_TP_CONFIG.format(extra=extra) + _TP_LINES, encoding="utf-8")
    report = analyze(tmp_path / "tp.log")
    by_rule = {f.rule_id: f for f in report.findings}
    wait = by_rule["hccl.socket-establish-timeout"]
    if ranks:
        assert wait.ranks == [0] and wait.suppressed_by == "unexplained.python-exception"
        assert (report.root_cause.rule_id, report.root_cause.ranks) == ("unexplained.python-exception", [1])
        assert report.cluster.ranks == [0, 1]
    else:
        assert wait.ranks == [] and report.root_cause.rule_id == "hccl.socket-establish-timeout"
        assert report.cluster is None


def test_a_tp_index_is_no_rank_when_a_line_says_otherwise(tmp_path):
    # torch_npu's header says global rank 3 inside TP1's tag: a tp index is not the rank here
    tagged = ("(VllmWorker TP1 pid=1400) ERROR 08-20 10:01:50 [x.py:1] [ERROR] 2025-08-20-10:01:50 (PID:1400, "
              "Device:1, RankID:3) ERR00100 PTA call acl api failed.\n")
    text = _TP_CONFIG.format(extra="") + tagged + _TP_LINES
    (tmp_path / "tp.log").write_text(text, encoding="utf-8")
    wait = next(f for f in analyze(tmp_path / "tp.log").findings if f.rule_id == "hccl.socket-establish-timeout")
    assert wait.ranks == []


def test_a_wait_naming_a_rank_that_waited_first_is_its_symptom(tmp_path):
    """Rank 0's 107020 task timeout (a wait) at 21:24, rank 1's notify wait for remote rank [0] half an
    hour later: rank 1's wait is the symptom of rank 0's; the chain leads to rank 0."""
    lines = [
        *_task_timeout(0, 474, "2025-07-13-21:24:03"),
        "[rank1]:[ERROR] 2025-07-13-21:54:10 (PID:475, Device:1, RankID:1) ERR02200 DIST call hccl api failed.",
        "[rank1]:EI0002: [PID: 475] 2025-07-13-21:54:10.100.000 The wait execution of the Notify register times "
        "out. Reason: The Notify register has not received the Notify record from remote rank [0].",
    ]
    (tmp_path / "w.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = analyze(tmp_path / "w.log")
    by_rule = {f.rule_id: f for f in report.findings}
    assert (report.root_cause.rule_id, report.root_cause.ranks) == ("rt.task-timeout", [0])
    assert (by_rule["hccl.notify-wait-timeout"].ranks, by_rule["hccl.notify-wait-timeout"].suppressed_by) == (
        [1], "rt.task-timeout")


@pytest.mark.parametrize("layout", ["dp-fact", "two-files", "mixed-entry"])
def test_a_tp_index_is_no_rank_outside_one_tp_group_in_one_log(tmp_path, layout):
    config = _TP_CONFIG.format(extra="")
    if layout == "dp-fact":  # vLLM's non-default args state two data parallel replicas
        (tmp_path / "a.log").write_text("(APIServer pid=100) INFO 08-20 10:01:00 [utils.py:326] non-default args: "
                                        "{'model': '/m', 'tensor_parallel_size': 2, 'data_parallel_size': 2}\n"
                                        + config + _TP_LINES, encoding="utf-8")
        paths = [tmp_path / "a.log"]
    elif layout == "two-files":  # two services, each with its own TP0 and TP1
        first, second = _TP_LINES.splitlines(keepends=True)
        (tmp_path / "a.log").write_text(config + first, encoding="utf-8")
        (tmp_path / "b.log").write_text(config + second, encoding="utf-8")
        paths = [tmp_path / "a.log", tmp_path / "b.log"]
    else:  # one rank-less entry counts the waits of TP1 and TP0: neither tp speaks for both
        wait = _TP_LINES.splitlines(keepends=True)[1]
        (tmp_path / "a.log").write_text(config + wait.replace("TP0 pid=1310", "TP1 pid=1311").replace(
            "PID: 1310", "PID: 1311") + wait, encoding="utf-8")
        paths = [tmp_path / "a.log"]
    report = analyze(paths)
    wait = next(f for f in report.findings if f.rule_id == "hccl.socket-establish-timeout")
    assert wait.ranks == [] and wait.suppressed_by is None


def test_two_ranks_that_only_timed_out_have_no_first_failure():
    """Ascend/pytorch#72 (corpus/rt-task-timeout-fsdp-two-ranks): ranks 2 and 3 both hit 107020 and
    nothing else; the maintainer says to look at the other nodes. The verdict names no first failure
    and says that every rank here only waited."""
    report = analyze(CORPUS / "rt-task-timeout-fsdp-two-ranks" / "log.txt")
    assert report.root_cause.rule_id == "rt.task-timeout"
    assert (report.cluster.ranks, report.cluster.first_failure, report.cluster.waits_only) == ([2, 3], None, True)
    from triage import render_text

    assert "No rank here shows a cause" in render_text(report)
    assert "First failure" not in render_text(report)
