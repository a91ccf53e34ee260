/**
 * The smallest Anthropic Messages API client the simulated learner needs: one
 * non-streaming `POST {base}/v1/messages` over `fetch`. Honours ANTHROPIC_BASE_URL.
 */
import { z } from 'zod';

export interface AnthropicSettings {
  apiKey: string;
  /** Without a trailing slash, e.g. `https://api.anthropic.com`. */
  baseUrl: string;
}

/** Settings from the environment, or null when ANTHROPIC_API_KEY is not set. */
export function anthropicSettingsFromEnvironment(environment: NodeJS.ProcessEnv): AnthropicSettings | null {
  const apiKey = environment.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) return null;
  const baseUrl = (environment.ANTHROPIC_BASE_URL?.trim() || 'https://api.anthropic.com').replace(/(?<!\/)\/+$/, '');
  return { apiKey, baseUrl };
}

export interface MessagesRequest {
  model: string;
  system: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  maxTokens: number;
}

const MessagesResponse = z.object({
  content: z.array(z.object({ type: z.string(), text: z.string().optional() })),
});

export type MessagesResult = { ok: true; text: string } | { ok: false; error: string };

export async function createMessage(settings: AnthropicSettings, request: MessagesRequest, timeoutMs = 60_000): Promise<MessagesResult> {
  let response: Response;
  let body: string;
  try {
    response = await fetch(`${settings.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': settings.apiKey, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: request.model, max_tokens: request.maxTokens, system: request.system, messages: request.messages }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await response.text();
  } catch (error) {
    return { ok: false, error: `Anthropic API unreachable: ${(error as Error).message}` };
  }
  if (!response.ok) return { ok: false, error: `Anthropic API answered ${response.status}: ${body.slice(0, 200)}` };
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return { ok: false, error: 'Anthropic API answered with invalid JSON' };
  }
  const parsed = MessagesResponse.safeParse(data);
  if (!parsed.success) return { ok: false, error: 'Anthropic API answered with an unexpected body' };
  const text = parsed.data.content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('').trim();
  return text ? { ok: true, text } : { ok: false, error: 'the model returned no text' };
}
