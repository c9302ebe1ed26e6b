/* test_interrupt.c - SIGINT/SIGTERM during `sgemu run` stop it cleanly:
 * exit status 130, a message, no output file and no temporary file left
 * beside it; the input files are untouched.  Runs the real binary ($SGEMU). */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static const char spin_src[] =
    ".kernel spin\n"
    ".arg out global i32\n"
    "    mov.u32 r0, %global_id.x\n"
    "loop:\n"
    "    add.u32 r1, r1, 1\n"
    "    bra loop\n"
    "    st.global.i32 [%out + r0*4], r1\n"
    "    ret\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_text(const char *path)
{
    static char buf[8192];
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
    }
    return buf;
}

static void interrupt_run(int sig)
{
    const char *bin = getenv("SGEMU");
    assert_non_null(bin);
    char dir[] = "/tmp/sgemu-int-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char kernel[256], out[256], err[256];
    snprintf(kernel, sizeof kernel, "%s/spin.sgasm", dir);
    snprintf(out, sizeof out, "%s/result.bin", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    write_file(kernel, spin_src);
    char outarg[300];
    snprintf(outarg, sizeof outarg, "out=%s", out);

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 2);
        close(fd);
        signal(sig, SIG_DFL);
        execl(bin, bin, "run", kernel, "--global", "4096", "--local", "64",
              "--arg", "out=int:zeros:4096", "--out", outarg, (char *)NULL);
        _exit(127);
    }
    struct timespec ts = { 0, 300 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, WNOHANG), 0);   /* still running */
    kill(pid, sig);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    const char *msg = read_text(err);
    if (!strstr(msg, "interrupted"))
        fail_msg("stderr does not say 'interrupted':\n%s", msg);

    /* nothing but the kernel and the captured stderr is left */
    DIR *d = opendir(dir);
    assert_non_null(d);
    const struct dirent *e;
    int others = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            !strcmp(e->d_name, "spin.sgasm") || !strcmp(e->d_name, "stderr.txt"))
            continue;
        fprintf(stderr, "left behind: %s\n", e->d_name);
        others++;
    }
    closedir(d);
    assert_int_equal(others, 0);
    assert_string_equal(read_text(kernel), spin_src);   /* input untouched */
    unlink(kernel);
    unlink(err);
    rmdir(dir);
}

static void sigint_stops_run(void **state)
{
    (void)state;
    interrupt_run(SIGINT);
}

static void sigterm_stops_run(void **state)
{
    (void)state;
    interrupt_run(SIGTERM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sigint_stops_run),
        cmocka_unit_test(sigterm_stops_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
