"""Runs emitted LangGraph Python modules on the real LangGraph Python and prints what they did.

Input (stdin): a JSON list of {"name", "source", "input", "recursionLimit"}, or of sessions
{"name", "source", "ops", "recursionLimit", "interruptBefore", "interruptAfter"}. Output (stdout): a
JSON list, one report per module in Superstep's report shape (src/core/report.ts) without the
versions (LangGraph Python's are strings of its own): status, error (type and message),
values, pending interrupts, and every checkpoint oldest first with its step, source, next and
values (and with `"subgraphs": true`, every subgraph checkpoint with its `ns`, as
`subgraphCheckpoints`). Each module runs on its `local_graph()`, the graph with an in-memory checkpointer. Messages
are written in Superstep's JSON vocabulary (src/core/reducers/addMessages.ts).

Used by src/differential/python.test.ts; LangGraph Python comes from
scripts/python-langgraph.sh.
"""

import json
import sys


def message_json(m):
    # Written apart from the export's _js_message on purpose: this is the oracle's reading of
    # LangGraph Python's state, and must not share a mistake with the code under test.
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


def load_graph(case):
    """The emitted module's graph with a checkpointer: its `local_graph()`. (The module's
    `graph` is the one LangGraph's server loads, which must have no checkpointer.)"""
    scope = {"__name__": "superstep_case"}
    exec(compile(case["source"], case["name"], "exec"), scope)
    return scope["local_graph"]()


def pending_interrupts(snapshot):
    return [plain(i.value) for t in snapshot.tasks for i in t.interrupts]


def ns_nodes(ns):
    """The node ids of a namespace from the root down (task ids and call counters dropped)."""
    return [part.split(":")[0] for part in ns.split("|") if not part.isdigit()]


def subgraph_checkpoints(graph, thread_id, full):
    """Every checkpoint of every subgraph on the thread, oldest first by id (uuid6, time-ordered),
    each read through the subgraph at its namespace (`get_state` with `checkpoint_ns`); `full`
    adds the parent (an index into this list) and the pending interrupts, as sessions report."""
    inner = [
        t
        for t in graph.checkpointer.list({"configurable": {"thread_id": thread_id}})
        if t.config["configurable"].get("checkpoint_ns", "") != ""
    ]
    inner.sort(key=lambda t: t.config["configurable"]["checkpoint_id"])
    index_of = {t.config["configurable"]["checkpoint_id"]: i for i, t in enumerate(inner)}
    out = []
    for t in inner:
        c = t.config["configurable"]
        config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": c["checkpoint_ns"], "checkpoint_id": c["checkpoint_id"]}}
        s = graph.get_state(config)
        report = {
            "step": s.metadata.get("step"),
            "source": s.metadata.get("source"),
            "next": list(s.next),
            "values": plain(s.values),
            "ns": ns_nodes(c["checkpoint_ns"]),
        }
        if full:
            parent = (t.parent_config or {}).get("configurable", {}).get("checkpoint_id")
            report["parent"] = index_of.get(parent)
            report["interrupts"] = pending_interrupts(s)
        out.append(report)
    return out


def run(case):
    graph = load_graph(case)
    config = {"configurable": {"thread_id": "1"}}
    if case.get("recursionLimit") is not None:
        config["recursion_limit"] = case["recursionLimit"]
    report = {"status": "done", "error": None, "interrupts": []}
    try:
        graph.invoke(case.get("input") or {}, config)
    except Exception as e:  # the run's own error is part of what is compared
        report["status"] = "error"
        report["error"] = error_json(e)
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
    # A pause leaves tasks to run. (Python's invoke returns `__interrupt__` only for interrupt()
    # payloads, not after a static breakpoint, so the newest checkpoint's `next` tells.)
    if report["status"] == "done" and history and history[-1].next:
        report["status"] = "interrupted"
        report["interrupts"] = pending_interrupts(history[-1])
    if case.get("subgraphs"):
        report["subgraphCheckpoints"] = subgraph_checkpoints(graph, "1", False)
    return report


def error_json(e):
    return {"name": type(e).__name__, "message": str(e)}


def session(case):
    """A session (src/differential/session.ts): ops on one thread, every checkpoint reported."""
    from langgraph.types import Command, Send, StateUpdate

    graph = load_graph(case)
    thread = {"configurable": {"thread_id": "session"}}
    extra = {}
    if case.get("recursionLimit") is not None:
        extra["recursion_limit"] = case["recursionLimit"]
    for key, option in (("interruptBefore", "interrupt_before"), ("interruptAfter", "interrupt_after")):
        if "*" in (case.get(key) or []):
            extra[option] = "*"

    def history():
        return list(graph.get_state_history(thread))[::-1]

    def goto(g):
        one = lambda t: t if isinstance(t, str) else Send(t["node"], t.get("args"))
        return [one(t) for t in g] if isinstance(g, list) else one(g)

    def command(c):
        params = {k: c[k] for k in ("resume", "update") if k in c}
        if c.get("goto") is not None:
            params["goto"] = goto(c["goto"])
        return Command(**params)

    def values_of(u):
        """What an update writes: its values, or its Command (`command`)."""
        return command(u["command"]) if u.get("command") is not None else u.get("values")

    def resume_map(config, answers):
        """Answers addressed by node and position among its tasks' pending interrupts."""
        tasks = graph.get_state(config).tasks
        out = {}
        for a in answers:
            pending = [i for t in tasks if t.name == a["node"] for i in t.interrupts]
            out[pending[a.get("index", 0)].id] = a["value"]
        return out

    def subgraph_checkpoint(index):
        """The config of the subgraphs' checkpoint `index`: every checkpoint of a non-root
        namespace on the thread, oldest first by id (uuid6, time-ordered), as the TS harness."""
        inner = [
            t.config["configurable"]
            for t in graph.checkpointer.list(thread)
            if t.config["configurable"].get("checkpoint_ns", "") != ""
        ]
        inner.sort(key=lambda c: c["checkpoint_id"])
        hit = inner[index]
        return {
            "configurable": {
                "thread_id": thread["configurable"]["thread_id"],
                "checkpoint_ns": hit["checkpoint_ns"],
                "checkpoint_id": hit["checkpoint_id"],
            }
        }

    error, op_errors = None, []
    for index, op in enumerate(case["ops"]):
        config = {"configurable": dict(thread["configurable"])}
        if op.get("subgraphCheckpoint") is not None:
            config = subgraph_checkpoint(op["subgraphCheckpoint"])
        elif op.get("checkpoint") is not None:
            # The snapshot's own config: thread, namespace and checkpoint id.
            config = {"configurable": dict(history()[op["checkpoint"]].config["configurable"])}
        try:
            if op["op"] == "update":
                if op.get("asNode") is None:
                    graph.update_state(config, values_of(op))
                else:
                    graph.update_state(config, values_of(op), as_node=op["asNode"])
                continue
            if op["op"] == "bulkUpdate":
                graph.bulk_update_state(
                    config,
                    [
                        [StateUpdate(values_of(u), u.get("asNode")) for u in s["updates"]]
                        for s in op["supersteps"]
                    ],
                )
                continue
            config.update(extra)
            if op["op"] == "invoke":
                graph.invoke(op.get("input"), config)
            elif op["op"] == "resume" and "answers" in op:
                graph.invoke(Command(resume=resume_map(config, op["answers"])), config)
            elif op["op"] == "resume":
                graph.invoke(Command(resume=op.get("value")), config)
            else:
                graph.invoke(command(op), config)
        except Exception as e:  # the op's own error is part of what is compared
            if op.get("continueOnError"):
                op_errors.append({"op": index, "error": error_json(e)})
            else:
                error = error_json(e)
                break
    snapshots = history()
    index_of = {s.config["configurable"]["checkpoint_id"]: i for i, s in enumerate(snapshots)}
    checkpoints = []
    for s in snapshots:
        parent = (s.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        checkpoints.append(
            {
                "step": s.metadata.get("step"),
                "source": s.metadata.get("source"),
                "next": list(s.next),
                "values": plain(s.values),
                "parent": index_of.get(parent),
                "interrupts": pending_interrupts(s),
            }
        )
    newest = checkpoints[-1] if checkpoints else None
    status = "error" if error else "interrupted" if newest and newest["next"] else "done"
    report = {
        "status": status,
        "values": newest["values"] if newest else {},
        "checkpoints": checkpoints,
        "error": error,
        "opErrors": op_errors,
    }
    if case.get("subgraphs"):
        report["subgraphCheckpoints"] = subgraph_checkpoints(graph, "session", True)
    return report


def main():
    out = []
    for case in json.load(sys.stdin):
        try:
            out.append(session(case) if "ops" in case else run(case))
        except Exception as e:  # a module that does not even build is reported, not fatal
            out.append({"status": "crash", "error": error_json(e)})
    json.dump(out, sys.stdout)


main()
