#!/usr/bin/env python3
"""check_readme.py BINARY SOURCE_DIR WORKDIR: the README's examples are the CLI's real output.

Every fenced block of README.md is read as a shell session: a line "$ clustertwin ARGS" (with
"\\" continuations) is a command, the lines up to the next "$ " line are what it printed, and
"$ cat FILE" followed by lines is a file the later commands of the session read (written to the
work folder first). Each command runs from WORKDIR/run, where examples/ is the source tree's, with
the source tree's catalog.

- A command that runs a file of examples/errors/ must print exactly the lines shown (stdout and
  stderr together), exit 1 and leave no file behind: the README cannot show an error a shipped file
  does not give.
- Any other command's shown lines must appear in its output (stdout, then stderr), in the order
  shown; a line starting with "..." (after spaces) stands for lines left out. So an excerpt may
  cut, but may not show a line the command does not print, or show lines out of order.

Commands that need a shell (a pipe other than "| grep WORD", a variable, a glob, a redirection), a
lab, a live server, or files that only an earlier, unrun command would make (a name the work folder
does not have) are skipped and counted; the check fails when fewer than MIN_CHECKED commands ran, so that it cannot
pass by checking nothing.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

MIN_CHECKED = 20
SHELL_SIGNS = re.compile(r"[|$*<>;&`]")


def blocks(text):
    """(first line number, lines) of each fenced block, 1-based line numbers."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((i + 2, lines[i + 1:j]))
            i = j + 1
        else:
            i += 1
    return out


def commands(block_start, block):
    """(line number, command text, shown lines) of each "$ " line of a block."""
    k = 0
    while k < len(block):
        if not block[k].startswith("$ "):
            k += 1
            continue
        line, cmd = block_start + k, block[k][2:]
        k += 1
        while cmd.endswith("\\") and k < len(block):
            cmd = cmd[:-1] + " " + block[k].strip()
            k += 1
        shown = []
        while k < len(block) and not block[k].startswith("$ "):
            shown.append(block[k])
            k += 1
        yield line, re.sub(r"\s+#\s.*$", "", cmd).strip(), shown


def missing_in_order(shown, output):
    """The shown lines (but "..." gaps) not found in output in the order shown."""
    missing, pos = [], 0
    for s in shown:
        if s.strip() == "" or s.lstrip().startswith("..."):
            continue
        try:
            pos = output.index(s, pos) + 1
        except ValueError:
            missing.append(s)
    return missing


def main():
    binary, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
    run = os.path.join(work, "run")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(run)
    os.symlink(os.path.join(src, "examples"), os.path.join(run, "examples"))
    env = dict(os.environ, CLUSTERTWIN_CATALOG=os.path.join(src, "catalog"))
    failures, checked, skipped, errors_checked = [], 0, 0, 0
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for start, block in blocks(readme):
        for line, cmd, shown in commands(start, block):
            where = f"README.md:{line}: {cmd}"
            grep = None  # "... | grep WORD": the lines of the output that contain WORD
            piped = re.fullmatch(r"(.*?)\s*\|\s*grep\s+(\w+)", cmd)
            if piped:
                cmd, grep = piped.group(1), piped.group(2)
            argv = shlex.split(cmd)
            if argv[:1] == ["cat"] and len(argv) == 2 and not SHELL_SIGNS.search(cmd):
                with open(os.path.join(run, argv[1]), "w", encoding="utf-8") as out:
                    out.write("\n".join(shown) + "\n")
                continue
            if argv[:1] != ["clustertwin"]:
                continue
            needs = [a for a in argv[1:] if not a.startswith("-") and re.search(r"\.(prom|csv|pem)$", a)]
            inputs_missing = [a for a in needs if not os.path.exists(os.path.join(run, a))
                              and not any(o in cmd for o in (f"-o {a}", f"--csv {a}", f"--csv-flows {a}"))]
            if SHELL_SIGNS.search(cmd) or argv[1:2] == ["lab"] or "--prometheus" in argv or inputs_missing:
                skipped += 1
                print(f"skipped: {where}")
                continue
            is_error_case = any(a.startswith("examples/errors/") for a in argv)
            cwd_before = set(os.listdir(run))
            result = subprocess.run([binary] + argv[1:], cwd=run, env=env, capture_output=True, text=True)
            checked += 1
            if is_error_case:
                errors_checked += 1
                both = subprocess.run([binary] + argv[1:], cwd=run, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True).stdout
                if result.returncode != 1:
                    failures.append(f"{where}\n  exit code {result.returncode}, the README's error examples exit 1")
                if both.rstrip("\n").split("\n") != shown:
                    failures.append(f"{where}\n  prints:\n" + "\n".join("    " + s for s in both.split("\n")))
                left = set(os.listdir(run)) - cwd_before
                if left:
                    failures.append(f"{where}\n  left output on bad input: {sorted(left)}")
                continue
            # A terminal shows the warnings (stderr) where they were printed, which a pipe does not
            # keep: either order of the two streams is the command's.
            out, err = result.stdout.split("\n"), result.stderr.split("\n")
            if grep is not None:
                out, err = [x for x in out if grep in x], []
            missing = min((missing_in_order(shown, o) for o in (err + out, out + err)), key=len)
            if missing:
                failures.append(f"{where}\n  {len(missing)} of {len(shown)} shown lines are not in its output "
                                f"in that order; the first: {missing[0]!r}")
    for f in failures:
        print("FAIL: " + f)
    print(f"{checked} README commands run ({errors_checked} error examples), {skipped} skipped "
          f"(a shell, a lab, a server or an earlier step's files), {len(failures)} failures")
    if checked < MIN_CHECKED or errors_checked < 2:
        print(f"FAIL: expected at least {MIN_CHECKED} README commands and 2 error examples to run")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
