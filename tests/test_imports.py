"""No module of firmware/ or host/ imports itself again through others, and
firmware/ holds only what goes onto the Pico, in its layers.

A circle of imports works only in the order the modules happen to load
in, and on the Pico it keeps a module loaded that was meant to be
unloaded (app.startup). A file of firmware/ imports only firmware/ and
what MicroPython on the Pico has built in: nothing of host/, the tests or
a PC library, which the build would copy to a Pico that cannot run it.
Within firmware/, the rules import only the rules and the hardware ports
nothing of the controller. The imports are read from the source, so an
import inside a function counts as much as one at the top.
"""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# where each tree's modules are named from: firmware/app/x.py is app.x, host/x.py is host.x
TREES = (os.path.join(ROOT, "firmware"), ROOT)
PACKAGES = ("firmware", "host")
# the modules MicroPython's rp2 port has built in (as micropython-rp2-rpi-pico-stubs lists them) that
# firmware/ may use beside its own
PICO_BUILTINS = {"array", "asyncio", "binascii", "collections", "deflate", "errno", "gc", "hashlib", "heapq", "io",
                 "json", "machine", "math", "micropython", "neopixel", "os", "platform", "random", "re", "rp2",
                 "select", "struct", "sys", "time", "uctypes", "vfs"}
# the parts of firmware/ each part may import: the rules stand alone, the hardware ports know nothing of
# the controller, main.py only starts it
LAYERS = {"rules": {"rules"}, "hal": {"hal", "rules"}, "app": {"app", "hal", "rules"}, "main": {"app"}}


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
    return {m for m in names_imported(name, path, is_package, modules) if m in modules and m != name}


def names_imported(name, path, is_package, modules):
    """Every module that module ``name`` imports, anywhere in its code, ours
    or not: ``from a import b`` names ``a.b`` where that is one of ours."""
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
    return found


def import_graph():
    modules = project_modules()
    return {name: imported(name, path, is_package, modules) for name, (path, is_package) in modules.items()}


def firmware_imports():
    """{module of firmware/: every module it imports}."""
    modules = project_modules()
    firmware = os.path.join(ROOT, "firmware") + os.sep
    return {name: names_imported(name, path, is_package, modules)
            for name, (path, is_package) in modules.items() if path.startswith(firmware)}


def foreign(imports):
    """(module, what it imports) where a module of firmware/ imports what the Pico does not have."""
    return sorted((name, m) for name in imports for m in imports[name]
                  if m.split(".")[0] not in LAYERS and m.split(".")[0] not in PICO_BUILTINS)


def across_layers(imports):
    """(module, what it imports) where a module of firmware/ imports a part of it above its own."""
    return sorted((name, m) for name in imports for m in imports[name]
                  if m.split(".")[0] in LAYERS and m.split(".")[0] not in LAYERS[name.split(".")[0]])


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


def test_what_firmware_may_not_import_is_named():
    imports = {"hal.x": {"hal.ticks", "app.controller", "time"}, "rules.y": {"hal.sensors", "rules.core"},
               "app.z": {"host.rig", "rules.core", "machine", "pathlib"}, "main": {"app.device", "rules.core"}}
    assert foreign(imports) == [("app.z", "host.rig"), ("app.z", "pathlib")]
    assert across_layers(imports) == [("hal.x", "app.controller"), ("main", "rules.core"), ("rules.y", "hal.sensors")]


def test_firmware_imports_nothing_the_pico_does_not_have():
    found = foreign(firmware_imports())
    assert not found, "firmware/ imports what is not on the Pico: " + "; ".join("%s imports %s" % f for f in found)


def test_each_part_of_firmware_imports_only_the_parts_below_it():
    imports = firmware_imports()
    assert "app.controller" in imports and "hal" in imports and "main" in imports
    found = across_layers(imports)
    assert not found, "imports across the layers of firmware/: " + "; ".join("%s imports %s" % f for f in found)
