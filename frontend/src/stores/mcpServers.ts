import { create } from 'zustand';
import type { MCPServerState } from '../api/types';

interface McpServersStore {
  /** The servers with their status and tools; null until listed. */
  servers: MCPServerState[] | null;
  /** Why the last listing failed, or ''. */
  error: string;
  setAll: (servers: MCPServerState[]) => void;
  fail: (error: string) => void;
  /** A server's new status or tools (a server not listed yet waits for the next listing). */
  update: (state: MCPServerState) => void;
  reset: () => void;
}

export const useMcpServersStore = create<McpServersStore>()((set) => ({
  servers: null,
  error: '',
  setAll: (servers) => set({ servers, error: '' }),
  fail: (error) => set({ error }),
  update: (st) => set((s) => ({ servers: s.servers && s.servers.map((x) => (x.server.id === st.server.id ? st : x)) })),
  reset: () => set({ servers: null, error: '' }),
}));
