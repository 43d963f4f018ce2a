"""The own-system tools used as a careful user would misuse them (issue 23, item 4): seal, the judgements
file, record and the statistics. Each test names the behaviour; expected values are worked by hand or
taken from scipy, never from ragmath's own output."""

from __future__ import annotations

import os
import tempfile

from ragmath.io import write_run

# ---------------------------------------------------------------- atomic writes


def test_another_writers_cleanup_cannot_delete_a_new_temporary_file(tmp_path, monkeypatch):
    import fcntl

    path = tmp_path / "run.trec"
    made = tempfile.mkstemp
    cleaned = []

    def mkstemp_then_cleanup(*args, **kwargs):  # another writer's stale-file cleanup, right after
        fd, name = made(*args, **kwargs)
        if not cleaned:
            other = os.open(name, os.O_RDONLY)
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
                os.unlink(name)
                cleaned.append(name)
            except OSError:
                pass
            finally:
                os.close(other)
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_cleanup)
    write_run({"q1": ["a"]}, path, tag="t")
    assert len(cleaned) == 1  # the first temporary file was taken away before its writer locked it
    assert path.read_text() == "q1 Q0 a 1 1.0 t\n"
    assert [p.name for p in tmp_path.iterdir()] == ["run.trec"]
