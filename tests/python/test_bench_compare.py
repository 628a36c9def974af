# SPDX-License-Identifier: Apache-2.0
# bench/compare.py --quick --check-only: every installed peer's output equals padnd's, bit for bit
# (peers that are not installed, or cannot express a workload, are reported n/a); and
# bench/value_modes.py: every value mode's output equals numpy.pad's. No timing claims.
import pathlib
import subprocess
import sys

COMPARE = pathlib.Path(__file__).resolve().parents[2] / "bench" / "compare.py"


def test_peers_match_padnd_bit_for_bit():
    run = subprocess.run([sys.executable, str(COMPARE), "--quick", "--check-only"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "| conv_same_small | numpy | — | — | — | bit-exact |" in run.stdout


VALUE_MODES = COMPARE.parent / "value_modes.py"


def test_value_mode_outputs_equal_numpy():
    run = subprocess.run([sys.executable, str(VALUE_MODES), "--check-only"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = run.stdout.splitlines()  # 2 arrays x 9 modes in value_modes.py
    assert len(rows) == 18 and all(row.endswith(" equal") for row in rows), run.stdout
