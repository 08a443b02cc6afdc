import { AgentPanel } from '../tasks/AgentPanel';
import { ConversationBar } from '../tasks/ConversationBar';
import { useFileDrop } from '../attachments/useFileDrop';
import { ChatHeader, DemoBanner } from './ChatHeader';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { ConversationPlan } from '../plan/ConversationPlan';

export function ChatView({ conversationId }: { conversationId: string }) {
  // Files dropped anywhere on the chat (transcript or composer) go to the composer.
  const drop = useFileDrop(conversationId);
  return (
    <section className={`chat${drop.over ? ' chat-dropping' : ''}`} aria-label="Chat" {...drop.handlers}>
      <ChatHeader conversationId={conversationId} />
      <ConversationBar conversationId={conversationId} />
      <DemoBanner />
      <ConversationPlan conversationId={conversationId} />
      <MessageList conversationId={conversationId} />
      <div className="chat-footer">
        <AgentPanel conversationId={conversationId} />
        <Composer key={conversationId} conversationId={conversationId} />
      </div>
      {drop.over && (
        <div className="drop-overlay" aria-hidden="true">
          <span>Drop files to attach them to your message</span>
        </div>
      )}
    </section>
  );
}
