"""Runs emitted LangGraph Python modules on the real LangGraph Python and prints what they did.

Input (stdin): a JSON list of {"name", "source", "input", "recursionLimit"}. Output (stdout): a
JSON list, one report per module in Superstep's report shape (src/core/report.ts) without the
versions (LangGraph Python's are strings of its own): status, error (type and message),
values, and every checkpoint oldest first with its step, source, next and values. Messages
are written in Superstep's JSON vocabulary (src/core/reducers/addMessages.ts).

Used by src/differential/python.test.ts; LangGraph Python comes from
scripts/python-langgraph.sh.
"""

import json
import sys


def message_json(m):
    out = {"type": m.type, "content": m.content}
    if m.id is not None:
        out["id"] = m.id
    if getattr(m, "name", None) is not None:
        out["name"] = m.name
    calls = getattr(m, "tool_calls", None)
    if calls:
        out["tool_calls"] = [
            {"name": c["name"], "args": c["args"], **({"id": c["id"]} if c.get("id") else {})}
            for c in calls
        ]
    if m.type == "tool":
        out["tool_call_id"] = m.tool_call_id
        if m.status in ("success", "error"):
            out["status"] = m.status
    return out


def plain(value):
    if hasattr(value, "type") and hasattr(value, "content") and hasattr(value, "model_dump"):
        return message_json(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"not a JSON value: {value!r}")


def run(case):
    scope = {"__name__": "superstep_case"}
    exec(compile(case["source"], case["name"], "exec"), scope)
    graph = scope["graph"]
    config = {"configurable": {"thread_id": "1"}}
    if case.get("recursionLimit") is not None:
        config["recursion_limit"] = case["recursionLimit"]
    report = {"status": "done", "error": None}
    try:
        graph.invoke(case.get("input") or {}, config)
    except Exception as e:  # the run's own error is part of what is compared
        report["status"] = "error"
        report["error"] = {"name": type(e).__name__, "message": str(e)}
    history = list(graph.get_state_history(config))[::-1]
    report["checkpoints"] = [
        {
            "step": s.metadata.get("step"),
            "source": s.metadata.get("source"),
            "next": list(s.next),
            "values": plain(s.values),
        }
        for s in history
    ]
    report["values"] = plain(history[-1].values) if history else {}
    return report


def main():
    out = []
    for case in json.load(sys.stdin):
        try:
            out.append(run(case))
        except Exception as e:  # a module that does not even build is reported, not fatal
            out.append({"status": "crash", "error": {"name": type(e).__name__, "message": str(e)}})
    json.dump(out, sys.stdout)


main()
