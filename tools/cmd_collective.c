/* cmd_collective.c - `sgemu collective`: one collective on one work-group. */
#include "cli.h"

int cli_cmd_collective(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("collective: not available yet");
}
