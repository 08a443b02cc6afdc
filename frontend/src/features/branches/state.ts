import { create } from 'zustand';

/** Which message the branch dialog or the variations view is open on (one at a time). */
interface BranchUI {
  branchFrom: { conversationId: string; messageId: string } | null;
  variationsOf: { conversationId: string; messageId: string } | null;
  /** The person's message being edited inline. */
  editing: string | null;
}

export const useBranchUI = create<BranchUI>()(() => ({ branchFrom: null, variationsOf: null, editing: null }));

export function openBranchDialog(conversationId: string, messageId: string): void {
  useBranchUI.setState({ branchFrom: { conversationId, messageId } });
}

export function openVariations(conversationId: string, messageId: string): void {
  useBranchUI.setState({ variationsOf: { conversationId, messageId } });
}

export function startEditing(messageId: string | null): void {
  useBranchUI.setState({ editing: messageId });
}

export function closeBranchUI(): void {
  useBranchUI.setState({ branchFrom: null, variationsOf: null });
}
