import type { Email } from './mailer.js';

export function passwordResetEmail(to: string, product: string, code: string, minutes: number): Email {
  return {
    to,
    subject: `Your ${product} password reset code: ${code}`,
    text: [
      `Hello,`,
      ``,
      `Someone asked to reset the password of your ${product} account.`,
      `Your code is: ${code}`,
      ``,
      `It works for ${minutes} minutes. If you did not ask for it, ignore this email: your password stays as it is.`,
    ].join('\n'),
  };
}

export function supportRequestEmail(
  to: string,
  product: string,
  request: { id: string; type: string; text: string },
): Email {
  return {
    to,
    subject: `[${product} support] ${request.type} #${request.id.slice(0, 8)}`,
    text: `${request.text}\n\nRequest ${request.id}`,
  };
}
