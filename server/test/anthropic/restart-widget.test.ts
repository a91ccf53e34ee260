/**
 * A widget pending across a SIGKILL, on the anthropic provider against the fake Messages API
 * (the scenario, shared with the OpenAI suite, is helpers/restart-widget-scenario.ts).
 */
import { anthropicWire } from '../helpers/provider-wire';
import { restartWidgetScenario } from '../helpers/restart-widget-scenario';

restartWidgetScenario(anthropicWire);
