import { z } from 'zod';

/** The /contact form (ours: the product's rules does not show its API). */
export const contactRequestSchema = z.strictObject({
  name: z.string().trim().min(1, 'Please enter your name.').max(100, 'Your name is longer than 100 characters.'),
  email: z
    .string()
    .trim()
    .max(254, 'The email address is too long.')
    .pipe(z.email('Please enter a valid email address.')),
  message: z
    .string()
    .trim()
    .min(10, 'Please write a message of at least 10 characters.')
    .max(2000, 'Your message is longer than 2,000 characters.'),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;
