import { useEffect, useRef, useState } from 'react';
import { PencilIcon } from '../../components/PencilIcon';
import { TitleInput } from '../../components/TitleInput';
import { displayTitle } from '../../lib/displayTitle';
import { renameConversation } from '../../stores/actions';
import { useAppStore } from '../../stores/app';
import { useConversationsStore } from '../../stores/conversations';
import { openSettings } from '../../stores/settingsView';
import { AgentPicker } from '../agents/AgentPicker';
import { ContextMeter } from './ContextMeter';
import { ConversationStateChip } from './ConversationStateChip';
import { HeaderActions, NARROW_HEADER, useMediaQuery } from './HeaderActions';
import { ModelPicker } from './ModelPicker';

function RenameField({ initial, onDone }: { initial: string; onDone: (title: string | null) => void }) {
  return <TitleInput initial={initial} onDone={onDone} className="title-input" label="Conversation title" />;
}

export function ChatHeader({ conversationId }: { conversationId: string }) {
  const conv = useConversationsStore((s) => s.byId[conversationId]);
  const [editing, setEditing] = useState(false);
  const renameBtn = useRef<HTMLButtonElement>(null);
  const title = displayTitle(conv?.title);
  const narrow = useMediaQuery(NARROW_HEADER);

  useEffect(() => {
    setEditing(false);
  }, [conversationId]);

  const onRenamed = (value: string | null) => {
    setEditing(false);
    if (value !== null) void renameConversation(conversationId, value);
    requestAnimationFrame(() => renameBtn.current?.focus());
  };

  return (
    <header className="chat-header">
      <div className="chat-title-wrap">
        {editing ? (
          <RenameField initial={conv?.title ?? ''} onDone={onRenamed} />
        ) : (
          <h1 className="chat-title" title="Double-click to rename" onDoubleClick={() => setEditing(true)}>
            {title}
          </h1>
        )}
        {!editing && (
          <button
            ref={renameBtn}
            type="button"
            className="icon-btn"
            aria-label="Rename conversation"
            title="Rename"
            onClick={() => setEditing(true)}
          >
            <PencilIcon />
          </button>
        )}
        <ConversationStateChip conversationId={conversationId} />
      </div>
      <div className="chat-header-right">
        <AgentPicker conversationId={conversationId} />
        <ContextMeter conversationId={conversationId} withCompact={!narrow} />
        <ModelPicker conversationId={conversationId} />
        <HeaderActions conversationId={conversationId} narrow={narrow} />
      </div>
    </header>
  );
}

/**
 * With nothing configured Errand answers with its offline demo model: this
 * says so and offers to connect a real one (Settings, at the provider).
 */
const BANNER_KEY = 'errand.demoBannerDismissed';

function bannerDismissed(): boolean {
  try {
    return localStorage.getItem(BANNER_KEY) === '1';
  } catch {
    return false;
  }
}

export function DemoBanner() {
  const model = useAppStore((s) => s.modelInfo);
  // Dismissed for good (the header's "Demo model" chip still says so).
  const [dismissed, setDismissed] = useState(bannerDismissed);
  if (!model?.demo || dismissed) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(BANNER_KEY, '1');
    } catch {
      // Not kept: it is dismissed until Errand opens again.
    }
    setDismissed(true);
  };
  return (
    <div className="first-run-banner" role="note" aria-label="Demo model">
      <svg className="first-run-icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
        <path
          d="M7 2.5v3M13 2.5v3M5 5.5h10v3.2a5 5 0 0 1-10 0zM10 13.7V17.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <p className="first-run-text">
        <strong>You are trying Errand with its demo model.</strong> It is built in and works offline — a stand-in
        with canned replies, not a real AI model. Connect OpenAI, Anthropic, Ollama, LM Studio, OpenRouter or
        any OpenAI-compatible server to get real work done.
      </p>
      <button type="button" className="btn btn-primary btn-small first-run-action" onClick={() => openSettings('provider')}>
        Connect a model
      </button>
      <button type="button" className="icon-btn first-run-close" aria-label="Dismiss" title="Dismiss" onClick={dismiss}>
        ×
      </button>
    </div>
  );
}
