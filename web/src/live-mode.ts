import { createContext, useContext } from 'react';
import type { LiveMode } from './api/use-live-updates.ts';

export const LiveModeContext = createContext<LiveMode>('connecting');
export const useLiveMode = () => useContext(LiveModeContext);
