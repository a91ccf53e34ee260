/**
 * A widget pending across a SIGKILL, on the openai provider against the fake Chat Completions
 * API (the scenario, shared with the Anthropic suite, is helpers/restart-widget-scenario.ts).
 */
import { openAiWire } from '../helpers/provider-wire';
import { restartWidgetScenario } from '../helpers/restart-widget-scenario';

restartWidgetScenario(openAiWire);
