/* event.c - events, user events, callbacks, and the command queue's
 * execution: a command runs at once when what it waits for is complete
 * (the usual case), otherwise it is held, with every later command of its
 * queue, until the user events it depends on are set. */
#include "icd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Commands held back, over all queues, in submission order. */
static icd_cmd *held, **held_tail = &held;

cl_event icd_event_new(cl_context ctx, cl_command_queue q, cl_command_type type)
{
    cl_event e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    icd_init_head(&e->h, ICD_EVENT);
    e->ctx = ctx;
    e->queue = q;
    e->type = type;
    atomic_init(&e->status, q ? CL_QUEUED : CL_SUBMITTED);
    icd_RetainContext(ctx);
    if (q)
        icd_RetainCommandQueue(q);
    return e;
}

void icd_event_release(cl_event e)
{
    if (atomic_fetch_sub(&e->h.refs, 1) != 1)
        return;
    e->h.kind = 0;
    while (e->callbacks) {
        icd_callback *cb = e->callbacks;
        e->callbacks = cb->next;
        free(cb);
    }
    if (e->queue)
        icd_ReleaseCommandQueue(e->queue);
    icd_ReleaseContext(e->ctx);
    free(e);
}

/* Set the status and call the callbacks it reaches (a negative status
 * reaches CL_COMPLETE's), each once. */
void icd_event_set_status(cl_event e, cl_int status)
{
    icd_lock();
    atomic_store(&e->status, status);
    icd_callback **pp = &e->callbacks;
    while (*pp) {
        icd_callback *cb = *pp;
        if (status <= cb->when) {
            *pp = cb->next;
            cb->fn(e, status < 0 ? status : cb->when, cb->user);
            free(cb);
            pp = &e->callbacks;     /* the callback may have added one */
        } else {
            pp = &cb->next;
        }
    }
    icd_unlock();
}

cl_int icd_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list)
{
    if ((n == 0) != (list == NULL))
        return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++) {
        if (!icd_valid(list[i], ICD_EVENT))
            return CL_INVALID_EVENT_WAIT_LIST;
        if (ctx && list[i]->ctx != ctx)
            return CL_INVALID_CONTEXT;
    }
    return CL_SUCCESS;
}

icd_cmd *icd_cmd_new(cl_command_queue q, cl_command_type type)
{
    icd_cmd *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->q = q;
    if (!(c->ev = icd_event_new(q->ctx, q, type))) {
        free(c);
        return NULL;
    }
    return c;
}

static bool cmd_ready(const icd_cmd *c)
{
    for (cl_uint i = 0; i < c->nwait; i++)
        if (atomic_load(&c->wait[i]->status) > CL_COMPLETE)
            return false;
    return true;
}

static void cmd_free(icd_cmd *c)
{
    if (c->done)
        c->done(c);
    for (cl_uint i = 0; i < c->nwait; i++)
        icd_event_release(c->wait[i]);
    free(c->wait);
    icd_event_release(c->ev);
    free(c);
}

/* Run a ready command: its profiling times are on the device's modelled
 * clock, which only kernels advance (docs/opencl-platform.md). */
static void cmd_execute(icd_cmd *c)
{
    cl_event e = c->ev;
    cl_device_id d = c->q->dev;
    e->prof[1] = d->clock_ns;
    icd_event_set_status(e, CL_SUBMITTED);
    e->prof[2] = d->clock_ns;
    icd_event_set_status(e, CL_RUNNING);
    cl_int st = CL_COMPLETE;
    for (cl_uint i = 0; i < c->nwait; i++)
        if (atomic_load(&c->wait[i]->status) < 0)
            st = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (st == CL_COMPLETE && c->run)
        st = c->run(c);
    d->clock_ns += e->run_ns;
    e->prof[3] = d->clock_ns;
    icd_event_set_status(e, st < 0 ? st : CL_COMPLETE);
    cmd_free(c);
}

/* Run every held command that became ready, in queue order. */
static void progress(void)
{
    for (bool again = true; again;) {
        again = false;
        /* a queue is blocked behind its first held command */
        cl_command_queue blocked[64];
        unsigned nb = 0;
        for (icd_cmd **pp = &held; *pp; pp = &(*pp)->next) {
            icd_cmd *c = *pp;
            bool behind = false;
            for (unsigned i = 0; i < nb; i++)
                behind |= blocked[i] == c->q;
            if (!behind && cmd_ready(c)) {
                *pp = c->next;
                if (!*pp)
                    held_tail = pp;
                cl_command_queue q = c->q;
                q->npending--;
                cmd_execute(c);
                icd_ReleaseCommandQueue(q);
                again = true;
                break;
            }
            if (!behind && nb < 64)
                blocked[nb++] = c->q;
        }
    }
}

/* Wait until the event is complete or failed; user events are set by other
 * threads (or callbacks), so the lock is not held while waiting. */
static void wait_event(cl_event e)
{
    while (atomic_load(&e->status) > CL_COMPLETE) {
        icd_lock();
        progress();
        icd_unlock();
        if (atomic_load(&e->status) <= CL_COMPLETE)
            break;
        struct timespec ts = { 0, 200000 };
        nanosleep(&ts, NULL);
    }
}

cl_int icd_submit(icd_cmd *c, cl_command_queue q, cl_uint nwait, const cl_event *wait,
                  cl_event *event, bool blocking)
{
    if (nwait) {
        if (!(c->wait = malloc(nwait * sizeof *wait))) {
            cmd_free(c);
            return CL_OUT_OF_HOST_MEMORY;
        }
        for (cl_uint i = 0; i < nwait; i++) {
            c->wait[i] = wait[i];
            atomic_fetch_add(&wait[i]->h.refs, 1);
        }
        c->nwait = nwait;
    }
    cl_event e = c->ev;
    atomic_fetch_add(&e->h.refs, 1);       /* ours until the end of submit */
    icd_lock();
    e->prof[0] = q->dev->clock_ns;
    if (q->npending == 0 && cmd_ready(c)) {
        cmd_execute(c);
    } else {
        c->next = NULL;
        *held_tail = c;
        held_tail = &c->next;
        q->npending++;
        icd_RetainCommandQueue(q);
    }
    icd_unlock();
    cl_int rc = CL_SUCCESS;
    if (blocking) {
        wait_event(e);
        if (atomic_load(&e->status) < 0)
            rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    if (event)
        *event = e;
    else
        icd_event_release(e);
    return rc;
}

cl_int icd_wait(cl_uint n, const cl_event *list)
{
    cl_int rc = CL_SUCCESS;
    for (cl_uint i = 0; i < n; i++) {
        wait_event(list[i]);
        if (atomic_load(&list[i]->status) < 0)
            rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    return rc;
}

cl_int icd_WaitForEvents(cl_uint num_events, const cl_event *event_list)
{
    if (!num_events || !event_list)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_events; i++) {
        if (!icd_valid(event_list[i], ICD_EVENT))
            return CL_INVALID_EVENT;
        if (event_list[i]->ctx != event_list[0]->ctx)
            return CL_INVALID_CONTEXT;
    }
    return icd_wait(num_events, event_list);
}

cl_int icd_GetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret)
{
    if (!icd_valid(event, ICD_EVENT))
        return CL_INVALID_EVENT;
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE: ICD_INFO(cl_command_queue, event->queue);
    case CL_EVENT_CONTEXT: ICD_INFO(cl_context, event->ctx);
    case CL_EVENT_COMMAND_TYPE: ICD_INFO(cl_command_type, event->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
        icd_lock();
        progress();
        icd_unlock();
        ICD_INFO(cl_int, atomic_load(&event->status));
    }
    case CL_EVENT_REFERENCE_COUNT: ICD_INFO(cl_uint, atomic_load(&event->h.refs));
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_RetainEvent(cl_event event)
{
    if (!icd_valid(event, ICD_EVENT))
        return CL_INVALID_EVENT;
    atomic_fetch_add(&event->h.refs, 1);
    return CL_SUCCESS;
}

cl_int icd_ReleaseEvent(cl_event event)
{
    if (!icd_valid(event, ICD_EVENT))
        return CL_INVALID_EVENT;
    icd_lock();
    icd_event_release(event);
    icd_unlock();
    return CL_SUCCESS;
}

/* A program on a profiling queue expects times, so a kernel run without the
 * timing model has zero-length ones (END = START); the first question for
 * them says so once, so that no one reads them as measured. */
static void note_untimed_profile(void)
{
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&said))
        fprintf(stderr, "sgemu: note: the timing model is off (SGEMU_TIMING=0 or "
                        "--no-timing): kernel events' profiling times are zero-length\n");
}

cl_int icd_GetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret)
{
    if (!icd_valid(event, ICD_EVENT))
        return CL_INVALID_EVENT;
    if (!event->queue || !(event->queue->props & CL_QUEUE_PROFILING_ENABLE) ||
        atomic_load(&event->status) != CL_COMPLETE)
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    if (event->untimed)
        note_untimed_profile();
    switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED: ICD_INFO(cl_ulong, event->prof[0]);
    case CL_PROFILING_COMMAND_SUBMIT: ICD_INFO(cl_ulong, event->prof[1]);
    case CL_PROFILING_COMMAND_START: ICD_INFO(cl_ulong, event->prof[2]);
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE: ICD_INFO(cl_ulong, event->prof[3]);
    default: return CL_INVALID_VALUE;
    }
}

cl_event icd_CreateUserEvent(cl_context context, cl_int *errcode_ret)
{
    cl_event e = NULL;
    cl_int rc = CL_SUCCESS;
    if (!icd_valid(context, ICD_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!(e = icd_event_new(context, NULL, CL_COMMAND_USER)))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (errcode_ret)
        *errcode_ret = rc;
    return e;
}

cl_int icd_SetUserEventStatus(cl_event event, cl_int execution_status)
{
    if (!icd_valid(event, ICD_EVENT) || event->type != CL_COMMAND_USER)
        return CL_INVALID_EVENT;
    if (execution_status > CL_COMPLETE)
        return CL_INVALID_VALUE;
    icd_lock();
    cl_int rc = CL_SUCCESS;
    if (atomic_load(&event->status) != CL_SUBMITTED) {
        rc = CL_INVALID_OPERATION;
    } else {
        icd_event_set_status(event, execution_status);
        progress();
    }
    icd_unlock();
    return rc;
}

cl_int icd_SetEventCallback(cl_event event, cl_int command_exec_callback_type,
                            void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                            void *user_data)
{
    if (!icd_valid(event, ICD_EVENT))
        return CL_INVALID_EVENT;
    if (!pfn_notify || (command_exec_callback_type != CL_COMPLETE &&
                        command_exec_callback_type != CL_SUBMITTED &&
                        command_exec_callback_type != CL_RUNNING))
        return CL_INVALID_VALUE;
    icd_callback *cb = calloc(1, sizeof *cb);
    if (!cb)
        return CL_OUT_OF_HOST_MEMORY;
    cb->when = command_exec_callback_type;
    cb->fn = pfn_notify;
    cb->user = user_data;
    icd_lock();
    cl_int st = atomic_load(&event->status);
    if (st <= cb->when) {            /* already there: call it now */
        icd_unlock();
        pfn_notify(event, st < 0 ? st : cb->when, user_data);
        free(cb);
        return CL_SUCCESS;
    }
    cb->next = event->callbacks;
    event->callbacks = cb;
    icd_unlock();
    return CL_SUCCESS;
}

cl_int icd_Flush(cl_command_queue command_queue)
{
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    icd_lock();
    progress();
    icd_unlock();
    return CL_SUCCESS;
}

cl_int icd_Finish(cl_command_queue command_queue)
{
    if (!icd_queue_valid(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    for (;;) {
        icd_lock();
        progress();
        bool idle = command_queue->npending == 0;
        icd_unlock();
        if (idle)
            return CL_SUCCESS;
        struct timespec ts = { 0, 200000 };
        nanosleep(&ts, NULL);
    }
}

/* Markers and barriers: commands that do nothing; in-order execution
 * already orders everything around them. */
static cl_int enqueue_nothing(cl_command_queue q, cl_command_type type, cl_uint nwait,
                              const cl_event *wait, cl_event *event)
{
    if (!icd_queue_valid(q))
        return CL_INVALID_COMMAND_QUEUE;
    cl_int rc = icd_check_wait_list(q->ctx, nwait, wait);
    if (rc)
        return rc;
    icd_cmd *c = icd_cmd_new(q, type);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    return icd_submit(c, q, nwait, wait, event, false);
}

cl_int icd_EnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event)
{
    return enqueue_nothing(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list,
                           event_wait_list, event);
}

cl_int icd_EnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event)
{
    return enqueue_nothing(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list,
                           event_wait_list, event);
}

cl_int icd_EnqueueMarker(cl_command_queue command_queue, cl_event *event)
{
    if (!event)
        return icd_queue_valid(command_queue) ? CL_INVALID_VALUE : CL_INVALID_COMMAND_QUEUE;
    return enqueue_nothing(command_queue, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int icd_EnqueueBarrier(cl_command_queue command_queue)
{
    return enqueue_nothing(command_queue, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

cl_int icd_EnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                const cl_event *event_list)
{
    if (!num_events || !event_list)
        return icd_queue_valid(command_queue) ? CL_INVALID_VALUE : CL_INVALID_COMMAND_QUEUE;
    return enqueue_nothing(command_queue, CL_COMMAND_BARRIER, num_events, event_list, NULL);
}
