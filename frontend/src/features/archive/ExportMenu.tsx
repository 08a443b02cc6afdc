// The conversation header's "Export" button: Markdown (to read) or JSON
// (complete, to import again).
import { ActionMenu } from '../../components/ActionMenu';
import { exportConversation } from './archiveActions';

export function ExportMenu({ conversationId }: { conversationId: string }) {
  const items = [
    { label: 'Markdown', hint: 'to read or share', run: () => void exportConversation(conversationId, 'markdown') },
    { label: 'JSON', hint: 'complete, can be imported again', run: () => void exportConversation(conversationId, 'json') },
  ];
  return <ActionMenu button="Export" menuLabel="Export as" items={items} resetKey={conversationId} />;
}
