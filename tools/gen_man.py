#!/usr/bin/env python3
"""gen_man.py SGEMU OUT - write the sgemu(1) man page from the --help texts
of the built binary, so that the page says what the commands say."""
import re
import subprocess
import sys


def help_text(sgemu, *args):
    r = subprocess.run([sgemu, *args, '--help'], capture_output=True, text=True, check=False)
    return r.stdout or r.stderr


def roff(text):
    """Plain text as literal roff: escape backslashes and leading dots."""
    out = []
    for line in text.rstrip('\n').split('\n'):
        line = line.replace('\\', '\\e')
        if line.startswith(('.', "'")):
            line = '\\&' + line
        out.append(line)
    return '\n'.join(out)


def main():
    sgemu, out = sys.argv[1], sys.argv[2]
    top = help_text(sgemu)
    commands = re.findall(r'^  ([a-z0-9]+) {2,}(.*)$', top.split('commands:')[1].split('options:')[0],
                          re.M)
    version = subprocess.run([sgemu, '--version'], capture_output=True, text=True,
                             check=False).stdout.split()[-1]
    page = [
        '.TH SGEMU 1 "" "sgemu %s" "User Commands"' % version,
        '.SH NAME',
        'sgemu \\- software GPU/SIMT emulator with a cycle-level subgroup model',
        '.SH SYNOPSIS',
        '.B sgemu',
        '.I COMMAND',
        '[\\fIOPTIONS\\fR]',
        '.br',
        '.B sgemu',
        '\\-\\-help | \\-\\-version',
        '.SH DESCRIPTION',
        '.nf',
        roff(top),
        '.fi',
        '.SH COMMANDS',
    ]
    for name, summary in commands:
        page += ['.SS %s' % name, summary.replace('\\', '\\e'), '.PP', '.nf',
                 roff(help_text(sgemu, name)), '.fi']
    page += [
        '.SH EXIT STATUS',
        '0 success; 1 bad input or usage; 2 kernel fault; 3 internal error;',
        '130 interrupted.',
        '.SH SEE ALSO',
        'The documents under docs/ in the sgemu sources: cli.md, sweeps.md, config.md,',
        'timing-model.md.',
    ]
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(page) + '\n')


if __name__ == '__main__':
    main()
