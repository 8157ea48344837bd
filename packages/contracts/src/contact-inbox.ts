import { z } from 'zod';
import { CONTACT_MESSAGE_STATUSES, MESSAGE_FOLDERS, MESSAGE_REPLY_MAX } from './moderation-display';
import type { FormOutcome } from './storefront';
import { textInt } from './strict-input';

/** The store's inbox of contact-form messages (decision 047). */
export const MESSAGES_PAGE_SIZE = 25;

export const messageListQuerySchema = z.strictObject({
  folder: z.enum(MESSAGE_FOLDERS).optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(500).optional(),
  limit: textInt('limit', { min: 1, max: 100 }).optional(),
});
export type MessageListQuery = z.infer<typeof messageListQuerySchema>;

export const messageIdParamsSchema = z.strictObject({ messageId: z.string().min(1).max(64) });

export const messageReplySchema = z.strictObject({
  text: z
    .string({ error: 'Write the reply.' })
    .trim()
    .min(1, 'Write the reply.')
    .max(MESSAGE_REPLY_MAX, `Use at most ${MESSAGE_REPLY_MAX} characters.`),
});
export type MessageReplyInput = z.infer<typeof messageReplySchema>;

export const messageSummarySchema = z.object({
  messageId: z.string(),
  name: z.string(),
  email: z.string(),
  /** The start of the message, for the list. */
  excerpt: z.string(),
  status: z.enum(CONTACT_MESSAGE_STATUSES),
  unread: z.boolean(),
  createdAt: z.string(),
  replies: z.number().int(),
});
export type MessageSummary = z.infer<typeof messageSummarySchema>;

export const messagePageSchema = z.object({
  items: z.array(messageSummarySchema),
  nextCursor: z.string().nullable(),
  /** Unread messages in the inbox (the menu's and the tab's count). */
  unread: z.number().int(),
});
export type MessagePage = z.infer<typeof messagePageSchema>;

export const messageReplyRowSchema = z.object({
  replyId: z.string(),
  text: z.string(),
  sentAt: z.string(),
  sentByName: z.string().nullable(),
});
export const messageThreadSchema = z.object({
  messageId: z.string(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  status: z.enum(CONTACT_MESSAGE_STATUSES),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  archivedAt: z.string().nullable(),
  replies: z.array(messageReplyRowSchema),
});
export type MessageThread = z.infer<typeof messageThreadSchema>;

export type MessageActionResult = { ok: true; message: string } | FormOutcome<'text'>;

/** The messages pages' functions (each checks the customers permission). */
export interface ContactInboxPages {
  messagesPage(query: Record<string, string | undefined>): Promise<MessagePage & { query: MessageListQuery }>;
  /** Opening a message marks it read; null when it is not this store's. */
  messagePage(messageId: string): Promise<MessageThread | null>;
  /** intent: reply | archive | inbox | unread. */
  messageAction(messageId: string, fields: Record<string, string>): Promise<MessageActionResult>;
}
