"""Every python block of python/README.md runs as written (from the
repository's root, as the README's paths assume)."""
import os
import re

from conftest import REPO


def test_readme_examples_run(monkeypatch, capsys):
    text = open(os.path.join(REPO, "python", "README.md"), encoding="utf-8").read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    monkeypatch.chdir(REPO)
    for b in blocks:
        exec(compile(b, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "True True False" in out and "[0, 1, 2]" in out
    os.remove("/tmp/seen.sbf")


def test_every_public_name_has_a_docstring():
    import simdbloom
    from simdbloom import parquet
    for obj in (simdbloom.Filter, simdbloom._core.ParquetFile, parquet.ParquetFile):
        for name in dir(obj):
            if not name.startswith("_"):
                assert getattr(obj, name).__doc__, f"{obj.__name__}.{name}"
    for f in (simdbloom.layouts, simdbloom.isa, parquet.encode):
        assert f.__doc__
    assert "no len()" in simdbloom.Filter.__doc__
