"""Writing result files: all or none, with a bar counting them when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactprob.errors import WriteError
from exactprob.util.files import folder_for, write_all


def test_files_are_written_all_together_with_a_bar(tmp_path: Path, capsys) -> None:
    targets = [tmp_path / f"{i}.txt" for i in range(3)]
    write_all([(t, lambda path, i=i: path.write_text(str(i))) for i, t in enumerate(targets)],
              progress=True)  # fmt: skip
    assert [t.read_text() for t in targets] == ["0", "1", "2"]
    assert "writing" in capsys.readouterr().err


def test_a_failed_write_leaves_no_file(tmp_path: Path) -> None:
    def fail(path: Path) -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(WriteError, match="No space left"):
        write_all([(tmp_path / "a.txt", lambda p: p.write_text("a")), (tmp_path / "b", fail)])
    assert list(tmp_path.iterdir()) == []


def test_a_folder_made_through_dot_dot_is_removed_whole(tmp_path):
    """``x/../y/z``: the folders made are ``y`` and ``y/z`` (``x`` is never made), and both
    go when the run fails."""
    with pytest.raises(KeyboardInterrupt), folder_for(tmp_path / "x" / ".." / "y" / "z", "--cache"):
        assert (tmp_path / "y" / "z").is_dir()
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
