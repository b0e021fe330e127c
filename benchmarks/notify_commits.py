"""What a ``NOTIFY`` in the writing transaction costs PostgreSQL under concurrent writers.

    .venv/bin/python benchmarks/notify_commits.py [--seconds 5] [--rounds 2] [--clients 1,8]

Why rulekeeper's writers send no ``NOTIFY`` (docs/deployment.md): PostgreSQL lets one notifying
transaction commit at a time across the database server, through its WAL flush, while plain
commits flush together. This runs PostgreSQL's own ``pgbench`` (shipped with pgserver, or the
system's) on the local test server, side by side in each round: one transaction that inserts
a row and selects a constant, and the same transaction with ``pg_notify`` in place of the
constant, each with 1 and with 8 clients. It prints transactions per second and, per client
count, the notifying ones as a share of the plain ones.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import rulekeeper.store  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rulekeeper.store.local_postgres import start_local_postgres

SCRIPTS = {
    "plain": "BEGIN;\nINSERT INTO notify_bench (v) VALUES (1);\nSELECT 1;\nCOMMIT;\n",
    "notifying": "BEGIN;\nINSERT INTO notify_bench (v) VALUES (1);\nSELECT pg_notify('notify_bench', 'x');\nCOMMIT;\n",
}


def pgbench() -> str:
    try:
        import pgserver

        bundled = Path(pgserver.__file__).parent / "pginstall" / "bin" / "pgbench"
        if bundled.exists():
            return str(bundled)
    except ImportError:
        pass
    found = shutil.which("pgbench")
    if found is None:
        raise SystemExit("pgbench not found: install pgserver (the test extra) or PostgreSQL's client tools")
    return found


def tps(program: str, url: str, script: Path, clients: int, seconds: float) -> float:
    command = [program, "-n", "-M", "prepared", "-c", str(clients), "-j", str(min(clients, 2))]
    out = subprocess.run(
        [*command, "-T", f"{seconds:g}", "-f", str(script), url],
        capture_output=True,
        text=True,
        check=True,
    )
    for line in out.stdout.splitlines():
        if line.startswith("tps = "):
            return float(line.split()[2])
    raise SystemExit(f"pgbench printed no rate:\n{out.stdout}\n{out.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each pgbench run")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, each running every script once")
    parser.add_argument("--clients", default="1,8", help="client counts, comma separated")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    program = pgbench()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        server = start_local_postgres(work / "pg")
        try:
            url = server.create_database("rk_notify_bench").replace("postgresql+psycopg://", "postgresql://", 1)
            import psycopg

            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("CREATE TABLE notify_bench (id bigserial PRIMARY KEY, v integer)")
            files = {}
            for name, text in SCRIPTS.items():
                files[name] = work / f"{name}.sql"
                files[name].write_text(text)
            rates: dict[tuple[str, int], list[float]] = {}
            for _ in range(args.rounds):
                for clients in counts:
                    for name, script in files.items():
                        rate = tps(program, url, script, clients, args.seconds)
                        rates.setdefault((name, clients), []).append(rate)
                        print(f"{name:>9}, {clients} clients: {rate:9.0f} transactions/s", flush=True)
        finally:
            server.stop()
    print(f"== medians over {args.rounds} rounds (PostgreSQL from {server.how})")
    for clients in counts:
        plain = statistics.median(rates[("plain", clients)])
        notifying = statistics.median(rates[("notifying", clients)])
        print(
            f"{clients} clients: plain {plain:,.0f}/s, notifying {notifying:,.0f}/s "
            f"({notifying / plain:.0%} of plain)"
        )


if __name__ == "__main__":
    main()
