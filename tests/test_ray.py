"""The Ray fan-out (``triage.run.fanout``, ``triage analyze --ray``) gives the report a local analyze gives.

Skipped when Ray is not installed, unless ``TRIAGE_REQUIRE_RAY=1`` (CI): then a missing Ray fails.
"""

from __future__ import annotations

import json
import os

import pytest

if os.environ.get("TRIAGE_REQUIRE_RAY") == "1":
    import ray  # noqa: F401  (must be importable: this import failing fails the run)
else:
    ray = pytest.importorskip("ray")

from typer.testing import CliRunner  # noqa: E402

from benchmarks.bundlegen import make_bundle  # noqa: E402
from triage import analyze  # noqa: E402
from triage.cli.app import app  # noqa: E402


@pytest.fixture(scope="session")
def ray_session():
    """One local Ray for the session (2 CPUs, no dashboard); the fan-out uses it as it is."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def bundle(tmp_path_factory, builtin_rules):
    root = tmp_path_factory.mktemp("ray") / "bundle"
    truth = make_bundle(root, rules=builtin_rules, nodes=2, ranks_per_node=4, first_rank=6, lines_per_rank=400)
    return root, truth


def _paths(root) -> list[str]:
    return [str(root / "node-0"), str(root / "node-1")]


def test_analyze_on_ray_is_the_local_report(ray_session, bundle):
    from triage.run.fanout import analyze_on_ray

    root, truth = bundle
    on_ray = analyze_on_ray(_paths(root))
    local = analyze(_paths(root))
    assert on_ray.model_dump(exclude={"matcher"}) == local.model_dump(exclude={"matcher"})
    assert on_ray.root_cause.rule_id == truth.cause
    assert on_ray.lines_read == truth.lines
    # the node folders named one by one are the nodes, on Ray as locally
    assert (on_ray.cluster.first_failure.rank, on_ray.cluster.first_failure.node) == (truth.first_rank,
                                                                                      truth.first_node)


def test_cli_ray_is_the_local_report(ray_session, bundle):
    root, _ = bundle
    runner = CliRunner()
    got = runner.invoke(app, ["analyze", "--ray", "--format", "json", *_paths(root)])
    want = runner.invoke(app, ["analyze", "--format", "json", *_paths(root)])
    assert got.exit_code == want.exit_code == 1, got.output
    a, b = json.loads(got.stdout), json.loads(want.stdout)
    a.pop("matcher", None)
    b.pop("matcher", None)
    assert a == b
