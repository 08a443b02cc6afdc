package tools

import (
	"context"
	"fmt"
)

// keptWrite runs write between the file's before- and after-state when the
// env keeps checkpoints. A file whose before-state cannot be kept is not
// changed; a change whose after-state cannot be kept is made, and the note
// says it cannot be undone.
func keptWrite(ctx context.Context, env Env, p string, write func() error) (note string, err error) {
	if env.Checkpoints == nil {
		return "", write()
	}
	rel, err := env.Workspace.checked(p)
	if err != nil {
		return "", err
	}
	if rel, err = env.Workspace.real(p, rel); err != nil {
		return "", err
	}
	if err := env.Checkpoints.BeforeWrite(ctx, rel); err != nil {
		return "", fmt.Errorf("%s was not changed: its current state could not be kept for Undo changes (%v)", rel, err)
	}
	err = write()
	if aerr := env.Checkpoints.AfterWrite(ctx, rel); aerr != nil && err == nil {
		note = fmt.Sprintf("\nNote: the new state of %s could not be kept, so Undo changes will not restore this file (%v).", rel, aerr)
	}
	return note, err
}

// keptCommand runs a command between a snapshot of the workspace and the
// record of what it changed, when the env keeps checkpoints. A command is
// not run when the workspace cannot be snapshotted.
func keptCommand(ctx context.Context, env Env, run func() (Result, error)) (Result, error) {
	if env.Checkpoints == nil {
		return run()
	}
	after, err := env.Checkpoints.BeforeCommand(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return errorResult("the command was not run: the workspace's files could not be kept for Undo changes (%v)", err)
	}
	res, err := run()
	// Recorded even when the task is stopping: the command may have changed files.
	note, aerr := after(context.WithoutCancel(ctx))
	switch {
	case aerr != nil:
		res.Content += fmt.Sprintf("\nNote: what the command changed could not be recorded, so Undo changes may not restore it (%v).", aerr)
	case note != "":
		res.Content += "\nNote: " + note
	}
	return res, err
}
