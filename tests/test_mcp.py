"""`triage mcp`: an agent reaches the server over stdio with the official SDK's client and gets a
diagnosis from its tools; paths outside the roots and oversized inputs are refused; reports are
redacted by default. Skipped without the mcp extra unless TRIAGE_REQUIRE_MCP=1 (.ci/run sets it)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

if os.environ.get("TRIAGE_REQUIRE_MCP") != "1":
    pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "vllm-ascend-507035.log"
TRIAGE = os.path.join(os.path.dirname(sys.executable), "triage")


def _calls(cwd: Path, calls: list[tuple[str, dict]], *args: str) -> tuple[list[str], list]:
    async def run():
        params = StdioServerParameters(command=TRIAGE, args=["mcp", *args], cwd=str(cwd))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = [t.name for t in (await session.list_tools()).tools]
            results = [await session.call_tool(name, arguments) for name, arguments in calls]
            return tools, results

    return asyncio.run(run())


def _json(result) -> object:
    if getattr(result, "structured_content", None):
        data = result.structured_content
        return data.get("result", data) if isinstance(data, dict) and set(data) == {"result"} else data
    return json.loads(result.content[0].text)


def test_an_agent_gets_a_diagnosis(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    text = EXAMPLE.read_text().replace("02:33:28", "02:33:28") + "INFO 08-28 02:34:00 [api.py:1] peer 10.1.2.3 gone\n"
    (logs / "engine.log").write_text(text)
    tools, results = _calls(tmp_path, [
        ("explain", {"text": "RuntimeError: ACL stream synchronize failed, error code:507035"}),
        ("analyze", {"path": "logs/engine.log"}),
        ("search_rules", {"words": "vector core"}),
        ("show_rule", {"rule_id": "op.vector-core-exceptio"}),
    ])
    assert sorted(tools) == ["analyze", "explain", "search_rules", "show_rule"]
    explained = _json(results[0])
    assert explained["schema_version"] == 1 and explained["root_cause"]["rule_id"] == "op.vector-core-exception"
    analyzed = _json(results[1])
    assert analyzed["root_cause"]["rule_id"] == "op.vector-core-exception"
    assert "10.1.2.3" not in json.dumps(analyzed)  # redacted by default
    assert any(r["id"] == "op.vector-core-exception" for r in _json(results[2]))
    assert results[3].is_error and "did you mean `op.vector-core-exception`" in results[3].content[0].text


def test_outside_the_roots_and_too_large_are_refused(tmp_path):
    inside = tmp_path / "inside"
    inside.mkdir()
    (inside / "big.log").write_text("x" * 5000)
    outside = tmp_path / "outside.log"
    shutil.copy(EXAMPLE, outside)
    _, results = _calls(inside, [("analyze", {"path": str(outside)}), ("analyze", {"path": "../outside.log"}),
                                 ("analyze", {"path": "big.log"})], "--max-bytes", "1000")
    assert all(r.is_error for r in results)
    assert "outside the roots" in results[0].content[0].text and "outside the roots" in results[1].content[0].text
    assert "more than 1000 bytes" in results[2].content[0].text
