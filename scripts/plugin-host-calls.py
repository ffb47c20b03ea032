#!/usr/bin/python3
"""Every host call the Figma and Penpot plugins make, held to the hosts' published API definitions.

The member lists plugins/testing/figma-api.txt and plugins/testing/penpot-api.txt record, for each host, the
members of its published definitions that the plugins and the host stubs rely on (package, version, the
declaring interface, the line of the definition file that declares it) and the members the plugins must not
use (state `absent` or `deprecated`). This script
reads the host adapters (plugins/figma/src/main.js, plugins/penpot/src/main.js: the only code that calls a
host) and fails when

- a chain from the host's global (`figma.ui.postMessage`, `penpot.history.undoBlockBegin`) is not a published
  member of the list, or is absent or deprecated there;
- any other member the adapter reads or calls (`.appendChild`, `.absoluteTransform`) is neither a published
  member of the list nor one of the adapter's own values (JavaScript's built-ins, the drawing instructions,
  the adapter's host object: NOT_HOST below), or is absent or deprecated in the list;
- a host call docs/plugins.md lists is not a published member of the list.
- a published or deprecated row of a list has no integer line (its fifth column), or an absent one has one.

It needs no network: the lists are the record. Prints one line per check and `N passed, M failed`.

    scripts/plugin-host-calls.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOSTS = {"figma": "plugins/figma/src/main.js", "penpot": "plugins/penpot/src/main.js"}

# Members of values that are not the host's: JavaScript's built-ins, the drawing instructions of
# plugins/shared/drawing.js, the adapter's own objects and HingeController's entry point.
NOT_HOST = {
    # JavaScript
    "slice", "map", "push", "length", "forEach", "reverse", "set", "get", "all", "resolve", "hypot", "max",
    "min", "round", "parse", "stringify", "from", "concat", "filter", "join",
    # drawing instructions (plugins/shared/drawing.js) and colours
    "kind", "role", "ref", "items", "text", "size", "bold", "color", "opacity", "fill", "stroke", "dash",
    "radii", "topLeft", "topRight", "bottomRight", "bottomLeft", "x1", "y1", "x2", "y2", "family", "style",
    # the adapter's host object, given to HingeController
    "start", "selectedFrame", "findFrame", "frameInfo", "frameBox", "arranges", "topLevel", "getData",
    "setData", "loadSettings", "saveSettings", "loadFonts", "beginUndo", "endUndo", "draw", "drawText", "post",
    "onMessage", "onSelection",
}


def member_list(kind):
    """({member: (declared in, state)}, [problems]) from plugins/testing/KIND-api.txt.

    Each row has five tab-separated columns; the fifth is the line of the published definition file where the
    member is declared (the list's header names the file and commit), or `-` for a member declared nowhere.
    A published or deprecated row without an integer line is a problem, as is a row of another shape."""
    out, problems = {}, []
    with open(os.path.join(ROOT, "plugins", "testing", f"{kind}-api.txt")) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 5:
                problems.append(f"line {number}: {len(cols)} columns, not 5")
                continue
            member, declared, _, state, declared_at = cols
            if state in ("published", "deprecated") and not re.fullmatch(r"[1-9][0-9]*", declared_at):
                problems.append(f"line {number}: {member} is {state} without the line it is declared at ({declared_at!r})")
            elif state == "absent" and declared_at != "-":
                problems.append(f"line {number}: {member} is absent but names a line ({declared_at!r})")
            out[member] = (declared, state)
    return out, problems


def strip_comments(source):
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    source = re.sub(r"(?m)//.*$", "", source)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`', '""', source)


def host_calls(kind, source):
    """(chains from the global, other members read or called) in the adapter's code."""
    code = strip_comments(source)
    chains = set()
    for m in re.finditer(rf"\b{kind}((?:\.[A-Za-z_]\w*)+)", code):
        chains.add(kind + m.group(1))
    members = set(re.findall(r"(?<=[\w$)\]])\.([A-Za-z_]\w*)", code))
    chain_parts = {p for c in chains for p in c.split(".")[1:]}
    return chains, members - chain_parts - {kind}


def documented(kind):
    text = open(os.path.join(ROOT, "docs/plugins.md")).read()
    m = re.search(rf"<!-- {kind} calls -->(.*?)<!-- end {kind} calls -->", text, re.S)
    return set(re.findall(r"`([A-Za-z]+\.[A-Za-z.]+)`", m.group(1))) if m else None


def main():
    results = []

    def check(name, problem):
        results.append((name, problem))
        print(f"{'ok  ' if not problem else 'FAIL'} {name}{'' if not problem else ': ' + problem}")

    for kind, path in HOSTS.items():
        members, problems = member_list(kind)
        check(f"{kind}: every published or deprecated member of {kind}-api.txt names the line that declares it",
              "; ".join(problems))
        names = {}
        for member, (declared, state) in members.items():
            names.setdefault(member.rsplit(".", 1)[1], set()).add(state)
        chains, others = host_calls(kind, open(os.path.join(ROOT, path)).read())
        for chain in sorted(chains):
            parts = chain.split(".")
            # The longest prefix the list knows; what follows is a member of the value it answers.
            known = [".".join(parts[:i]) for i in range(2, len(parts) + 1) if ".".join(parts[:i]) in members]
            if not known:
                check(f"{kind}: {chain}", "not in the published definitions")
                continue
            declared, state = members[known[-1]]
            rest = parts[len(known[-1].split(".")):]
            if state != "published":
                check(f"{kind}: {known[-1]}", f"{state} in the definitions")
                continue
            bad = [r for r in rest if "published" not in names.get(r, set()) and r not in NOT_HOST]
            check(f"{kind}: {chain} ({declared})", f"{bad} not published members" if bad else "")
        for name in sorted(others):
            states = names.get(name, set())
            if "published" in states:
                decl = sorted({d for m, (d, s) in members.items() if m.rsplit(".", 1)[1] == name and s == "published"})
                check(f"{kind}: .{name} ({', '.join(decl)})", "")
            elif states:
                check(f"{kind}: .{name}", f"{'/'.join(sorted(states))} in the definitions")
            elif name not in NOT_HOST:
                check(f"{kind}: .{name}", "neither a published member of the host nor one of the adapter's own values")
        listed = documented(kind)
        if listed is None:
            check(f"{kind}: docs/plugins.md lists the host calls", "no list")
            continue
        wrong = sorted(m for m in listed if members.get(m, ("", ""))[1] != "published")
        check(f"{kind}: the {len(listed)} host calls docs/plugins.md lists are published members",
              f"not published: {wrong}" if wrong else "")

    failed = [r for r in results if r[1]]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
