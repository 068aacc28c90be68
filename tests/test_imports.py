"""No module of firmware/ or host/ imports itself again through others.

A circle of imports works only in the order the modules happen to load
in, and on the Pico it keeps a module loaded that was meant to be
unloaded (app.startup). The graph is read from the source, so an import
inside a function counts as much as one at the top.
"""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# where each tree's modules are named from: firmware/app/x.py is app.x, host/x.py is host.x
TREES = (os.path.join(ROOT, "firmware"), ROOT)
PACKAGES = ("firmware", "host")


def module_name(top, path):
    parts = os.path.relpath(path, top)[:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules():
    """{module name: (its path, whether it is a package)} for every .py file of firmware/ and host/."""
    modules = {}
    for top, package in zip(TREES, PACKAGES):
        for folder, dirs, files in os.walk(os.path.join(ROOT, package)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(folder, f)
                    modules[module_name(top, path)] = (path, f == "__init__.py")
    return modules


def imported(name, path, is_package, modules):
    """The project modules that module ``name`` imports, anywhere in its code."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".")
                if not is_package:
                    package.pop()
                package = package[:len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            for a in node.names:
                child = base + "." + a.name
                found.add(child if child in modules else base)
    return {m for m in found if m in modules and m != name}


def import_graph():
    modules = project_modules()
    return {name: imported(name, path, is_package, modules) for name, (path, is_package) in modules.items()}


def circles(graph):
    """Circles of imports, each as [a, b, ..., a]: at least one through every
    group of modules that import each other."""
    found = []
    done = set()
    for start in sorted(graph):
        if start in done:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        on_path = {start}
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                circle = path[path.index(child):] + [child]
                if not any(set(circle) <= set(c) for c in found):
                    found.append(circle)
            elif child not in done:
                stack.append((child, iter(sorted(graph[child]))))
                path.append(child)
                on_path.add(child)
    return found


def test_the_graph_is_read_from_top_level_and_function_level_imports():
    graph = import_graph()
    assert "rules.core" in graph["rules.detour"]  # from rules.core import ...
    assert "app.startup" in graph["app.device"]  # from app import startup, inside a function
    assert "host.bench.pico" in graph["host.bench"]  # from host.bench import pico as bench_pico


def test_a_circle_is_named():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_firmware_or_host_is_in_a_circle_of_imports():
    found = circles(import_graph())
    assert not found, "circles of imports: " + "; ".join(" -> ".join(c) for c in found)
