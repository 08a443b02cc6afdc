package chat

import "time"

// FileChange is what one task did to one file in its workspace: the
// content before the task's first change and after its last, each named by
// its content hash ("" when the file did not exist before, or was deleted).
type FileChange struct {
	TaskID    string `json:"taskId"`
	Workspace string `json:"workspace"`
	// Path is relative to the workspace, with forward slashes.
	Path   string `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Pending is true between the before-image and the after-image of a
	// change in progress.
	Pending bool `json:"pending"`
}

// Changed reports whether the task left the file different.
func (c FileChange) Changed() bool { return !c.Pending && c.Before != c.After }

// Checkpoint is a task's record of file changes: whether they are undone
// now, and whether the before-images were pruned (then undo is refused).
type Checkpoint struct {
	TaskID    string       `json:"taskId"`
	Undone    bool         `json:"undone"`
	Pruned    bool         `json:"pruned"`
	Dismissed bool         `json:"dismissed"`
	CreatedAt time.Time    `json:"createdAt"`
	Files     []FileChange `json:"files"`
	// Tools are the tools the task called whose changes are not kept
	// (MCP servers' tools that may write): Undo cannot restore them.
	Tools []string `json:"tools"`
}

// FileChoice is how the person resolves one conflicting file on undo:
// keep what is there now, or restore the state the undo goes back to.
type FileChoice string

const (
	KeepCurrent FileChoice = "keep"
	RestoreFile FileChoice = "restore"
)

// UndoOutcome says what an undo (or its redo) did. When Conflicts is not
// empty nothing was changed: each listed file changed since the task and
// needs the person's choice.
type UndoOutcome struct {
	Restored  []string `json:"restored"`
	Kept      []string `json:"kept"`
	Conflicts []string `json:"conflicts"`
}

// FilesChanged is what a task did to the files, as the person sees it:
// each file created, changed or deleted, whether the changes are undone
// now or can no longer be (pruned), whether the person dismissed the
// card, and the tools whose changes Undo cannot restore (NotUndoable).
type FilesChanged struct {
	TaskID      string        `json:"taskId"`
	Undone      bool          `json:"undone"`
	Pruned      bool          `json:"pruned"`
	Dismissed   bool          `json:"dismissed"`
	Files       []ChangedFile `json:"files"`
	NotUndoable []string      `json:"notUndoable"`
}

// ChangedFile is one file of FilesChanged.
type ChangedFile struct {
	Path   string     `json:"path"`
	Change ChangeKind `json:"change"`
}

// ChangeKind is what a task did to one file.
type ChangeKind string

const (
	ChangeCreated ChangeKind = "created"
	ChangeChanged ChangeKind = "changed"
	ChangeDeleted ChangeKind = "deleted"
)
