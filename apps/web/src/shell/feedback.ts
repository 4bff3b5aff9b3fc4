import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Code outside components (the lazy-page loader, the API client) shows toasts through the message
 * instance of the antd <App>, so that they follow the theme and locale. Set by AppFeedbackBridge.
 */
let current: MessageInstance = staticMessage;

export function setAppMessage(instance: MessageInstance): void {
  current = instance;
}

export function appMessage(): MessageInstance {
  return current;
}
