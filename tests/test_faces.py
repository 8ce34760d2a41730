"""The package's faces and signatures, read from the source with :mod:`ast` (nothing imported):

- every package ``__init__.py`` declares ``__all__``, each name of it a submodule or a name the
  ``__init__`` defines or imports, and docs/design.md names every package;
- no two modules share a file name (``bias_variance.py`` was three modules of three packages);
- few functions take eight parameters or more: settings that travel together travel as one
  frozen object (``spec.CompareSpec``, ``evaluation.adapter.FitContext``, ...).
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bayesbench"
# Functions of 8 or more parameters (self and cls aside, keyword-only ones counted), at most:
# numba kernels (hdp_kernel), click commands (cli), scikit-learn estimators' __init__ (one
# parameter per hyper-parameter), and what is left.
MAX_LONG_SIGNATURES = 12
LONG = 8


def _modules():
    return [p for p in PACKAGE.rglob("*.py")]


def parameter_count(node: ast.FunctionDef) -> int:
    """The parameters of a function, ``self`` and ``cls`` aside, ``*args`` and ``**kwargs``
    each one."""
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    names += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
    return len([n for n in names if n not in ("self", "cls")])


def long_signatures(paths, root=ROOT) -> list[str]:
    """``file:line name`` of every function of ``paths`` with :data:`LONG` parameters or more."""
    out = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if parameter_count(node) >= LONG:
                    out.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    return out


def repeated_names(paths, root=ROOT) -> dict[str, list[str]]:
    """The module file names (``__init__.py`` aside) that more than one of ``paths`` has."""
    seen = {}
    for path in paths:
        if path.name != "__init__.py":
            seen.setdefault(path.name, []).append(str(path.relative_to(root)))
    return {name: where for name, where in seen.items() if len(where) > 1}


def test_the_parameter_count_counts_keyword_only_and_starred_parameters():
    node = ast.parse("def f(self, a, b=1, *args, c, d=2, **kw): pass").body[0]
    assert parameter_count(node) == 6
    method = ast.parse("class A:\n    @classmethod\n    def g(cls, x, /, y): pass").body[0].body[0]
    assert parameter_count(method) == 2


def test_few_functions_take_eight_parameters_or_more():
    found = long_signatures(_modules())
    assert len(found) <= MAX_LONG_SIGNATURES, "\n".join(found)


def test_no_module_file_name_is_used_twice():
    assert repeated_names(_modules()) == {}


def _declared(init: Path) -> tuple[list[str] | None, set[str]]:
    """``__all__`` of a package's ``__init__`` (None without one) and the names it binds: those
    it assigns, imports and defines, and those its module ``__getattr__`` resolves lazily (the
    strings it compares the name with)."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    declared, bound = None, set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            bound |= {c.value for c in ast.walk(node) if isinstance(c, ast.Constant)
                      and isinstance(c.value, str) and c.value.isidentifier()}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id == "__all__":
                    declared = (declared or []) + list(ast.literal_eval(node.value))
                elif isinstance(target, ast.Name):
                    bound.add(target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
    return declared, bound


def test_every_package_declares_its_public_names_and_each_resolves():
    design = (ROOT / "docs" / "design.md").read_text()
    for init in sorted(PACKAGE.rglob("__init__.py")):
        package = init.parent
        name = str(package.relative_to(ROOT))
        declared, bound = _declared(init)
        assert declared is not None, f"{name}/__init__.py declares no __all__"
        submodules = {p.stem for p in package.glob("*.py")} | {
            p.name for p in package.iterdir() if (p / "__init__.py").exists()}
        unknown = [n for n in declared if n not in submodules and n not in bound]
        assert unknown == [], f"{name}: __all__ names {unknown}, which it neither defines nor holds"
        assert len(declared) == len(set(declared)), f"{name}: __all__ names one name twice"
        inside = name.removeprefix("bayesbench").lstrip("/")
        assert f"`{inside}/`" in design or name == "bayesbench", \
            f"docs/design.md does not name the package {inside}/"


def test_the_checks_catch_what_they_guard_against(tmp_path):
    # A repeated file name, a long signature and a package without __all__, in a toy tree.
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "__init__.py").write_text("x = 1\n")
    (tmp_path / "a" / "same.py").write_text("def f(a, b, c, d, e, f, g, *, h): pass\n")
    (tmp_path / "same.py").write_text("")
    paths = sorted(tmp_path.rglob("*.py"))
    assert long_signatures(paths, tmp_path) == ["a/same.py:1 f"]
    assert repeated_names(paths, tmp_path) == {"same.py": ["a/same.py", "same.py"]}
    assert _declared(tmp_path / "a" / "__init__.py") == (None, {"x"})
