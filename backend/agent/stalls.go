package agent

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// errTimeLimit is the cause of a model call cut because the task's time
// limit was reached while it ran.
var errTimeLimit = errors.New("the task's time limit was reached during the model call")

// stalled reports whether err is a model call cut because its server fell
// silent (not a Stop: ctx is still live).
func stalled(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil && errors.Is(err, llm.ErrStalled)
}

// logStallRetry says in the log that a stalled call is tried once more.
func logStallRetry(err error, attrs ...any) {
	slog.Warn("the model server stopped answering; trying the call once more", append(attrs, "err", chat.Details(err))...)
}

// stallFailure is the error of a call that stalled twice, for the person.
func stallFailure(err error) error {
	silence := "too long"
	var se *llm.StallError
	if errors.As(err, &se) {
		silence = llm.Seconds(se.Silence)
	}
	return chat.Wrap(chat.CodeModel, err,
		"The model server stopped answering: nothing came for %s, also when the call was tried again. "+
			"Check that the server is running (a local model may still be loading), or raise the model timeouts in Settings.", silence)
}

// streamPatiently is p.Stream with one more try when the server stalls;
// a second stall fails with stallFailure. out must tolerate a reply
// started over (it gets nothing, or a stream it can drop).
func streamPatiently(ctx context.Context, p llm.Provider, req llm.Request, out llm.Deltas, attrs ...any) (llm.Response, error) {
	resp, err := p.Stream(ctx, req, out)
	if !stalled(ctx, err) {
		return resp, err
	}
	logStallRetry(err, attrs...)
	resp, err = p.Stream(ctx, req, out)
	if stalled(ctx, err) {
		return resp, stallFailure(err)
	}
	return resp, err
}

// timeLimited is ctx cut with errTimeLimit when the task's active time
// reaches its limit; the limit counts in agent mode only.
func (rn *run) timeLimited(ctx context.Context, agentMode bool) (context.Context, context.CancelFunc) {
	t := rn.snapshot()
	if !agentMode || t.Limits.MaxMinutes <= 0 {
		return ctx, func() {}
	}
	left := time.Duration(limitMS(t.Limits)-t.ActiveMS) * time.Millisecond
	return context.WithTimeoutCause(ctx, max(left, 0), errTimeLimit)
}

// limitMS is the time limit in milliseconds of active time.
func limitMS(l chat.Limits) int64 {
	return int64(l.MaxMinutes * float64(time.Minute/time.Millisecond))
}

// timeUp reports whether the call under ctx was cut by the time limit.
func timeUp(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errTimeLimit)
}

// cutOff ends a reply cut before its end: it stays in the transcript,
// folded, and is not shown to the model; the step's next call writes it
// again, whole.
func (rn *run) cutOff(m chat.Message) error {
	if m.ID == "" {
		return nil
	}
	ctx, cancel := storeCtx()
	defer cancel()
	stored, err := rn.r.opts.Store.GetMessage(ctx, m.ConversationID, m.ID)
	if err != nil {
		return err
	}
	stored.Streaming, stored.Outcome = false, chat.OutcomeCutOff
	_, err = rn.replace(stored)
	return err
}

// stoppedByTimeLimit counts the cut call's time as worked, at least up to
// the limit (so the limit pauses the task before the next call), and
// returns errTimeLimit.
func (rn *run) stoppedByTimeLimit(start time.Time) error {
	if err := rn.update(func(t *chat.Task) {
		t.ActiveMS = max(t.ActiveMS+time.Since(start).Milliseconds(), limitMS(t.Limits))
	}); err != nil {
		return err
	}
	slog.Info("the task's time limit was reached during a model call; the call was cut", "task", rn.snapshot().ID)
	return errTimeLimit
}
