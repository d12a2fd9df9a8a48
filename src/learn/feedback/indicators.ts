/**
 * Heuristic reading of one user message that follows an agent's answer (seed 003's analysis criteria):
 *   - feedback cue: explicit positive ("thanks", "helpful", "perfect"), resolution ("that fixed it", "works
 *     now"), explicit negative ("that's wrong", "not correct"), rejection ("that's not what I asked", "doesn't
 *     work") or correction ("I meant …", "No, …");
 *   - what the rest of the message asks: a new substantive query, a follow-up on the same answer
 *     (clarification, format or style request, the answer to the agent's own question), a meta request
 *     (greetings, "what can you do"), or nothing (an acknowledgement).
 * Cues are judged per sentence and only when the sentence is about the answer ("that's wrong", a short
 * "Perfect!"), so "what's wrong with my build?" is a query, not a complaint. Negative cues are tried first:
 * "not helpful" must never read as "helpful". Questions are never feedback.
 */
import { sentences, stemSet } from '../text.js';

export type Polarity = 'positive' | 'negative';
export type CueKind = 'explicit' | 'resolution' | 'rejection' | 'correction';
export type RequestKind = 'query' | 'followup' | 'meta' | 'none';

export interface FeedbackCue {
  polarity: Polarity;
  kind: CueKind;
  /** The words that carried the cue, as written. */
  text: string;
}

export interface UserMessageReading {
  cue?: FeedbackCue | undefined;
  request: RequestKind;
  /** The message without its feedback (the query text when `request` is `query`). */
  rest: string;
}

interface CueRule {
  polarity: Polarity;
  kind: CueKind;
  re: RegExp;
}

const ABOUT_ANSWER = String.raw`(?:that|this|it|you|your (?:answer|response|code|solution|suggestion)|the (?:answer|response|code|solution|suggestion))`;
const IS = String.raw`\s*(?:'s|’s|'re|’re|\s+is|\s+are|\s+was|\s+were)?\s+(?:still\s+|totally\s+|completely\s+|just\s+|very\s+|really\s+|super\s+|so\s+|exactly\s+)?`;

/** Whole-sentence cues, negative first. */
const SENTENCE_RULES: readonly CueRule[] = [
  {
    polarity: 'negative',
    kind: 'explicit',
    re: new RegExp(`\\b${ABOUT_ANSWER}${IS}(wrong|incorrect|inaccurate|false|broken|unhelpful|useless|not (?:correct|right|accurate|true|helpful|useful|working|it))\\b`, 'i'),
  },
  { polarity: 'negative', kind: 'rejection', re: /\bnot what i (?:asked|wanted|meant|needed|was looking for)\b|\bthat['’]?s not (?:it|what)\b/i },
  {
    polarity: 'negative',
    kind: 'rejection',
    re: /\b(?:doesn['’]?t|does not|didn['’]?t|did not|won['’]?t|still (?:doesn['’]?t|does not))\s+(?:work|help|compile|run|answer|fix|solve)\b|\b(?:still|isn['’]?t|is not|not)\s+working\b|\bstill (?:fails|failing|broken|crash\w*|the same error|get(?:ting)? the same)\b/i,
  },
  {
    polarity: 'negative',
    kind: 'correction',
    re: /\bi (?:said|asked for|asked about|meant)\b|\byou (?:misunderstood|misread|missed|ignored|forgot|got it wrong)\b|^actually,?\s+(?:i meant|i said|it['’]?s|it is|that['’]?s|the answer)\b/i,
  },
  {
    polarity: 'negative',
    kind: 'explicit',
    re: /\b(?:useless|unhelpful|not (?:helpful|useful|great|good|quite|correct|right)|terrible|awful|makes no sense|doesn['’]?t make sense|nonsense|hallucinat\w*|made (?:that|it|this) up|wrong (?:answer|again))\b/i,
  },
  { polarity: 'positive', kind: 'explicit', re: /\b(?:thanks|thank you|thank u|thx|cheers|much appreciated|appreciate (?:it|that|the help))\b/i },
  {
    polarity: 'positive',
    kind: 'explicit',
    re: new RegExp(`\\b${ABOUT_ANSWER}${IS}(helpful|useful|great|perfect|correct|right|awesome|excellent|brilliant|clear|spot on|what i (?:needed|wanted|asked for|was looking for))\\b`, 'i'),
  },
  {
    polarity: 'positive',
    kind: 'resolution',
    re: /\b(?:that|this|it)\s+(?:works|worked|did it|did the trick|fixed it|solved it|helped)\b|\b(?:works|working) (?:now|perfectly|great|fine|like a charm)\b|\bproblem solved\b|\ball good now\b|\b(?:fixed|solved|resolved|sorted)(?: it| the (?:issue|problem|bug|error))?(?: now)?$/i,
  },
];

/** Praise words that count only in a short exclamation ("Perfect!", "Great job"), never inside a request. */
const SHORT_PRAISE = /\b(?:perfect|great|awesome|excellent|brilliant|fantastic|amazing|wonderful|nice|helpful|good job|well done|spot on|exactly|love it|looks good|good|correct|works)\b/i;
const SHORT_WORDS = 5;

/** A feedback interjection that opens a sentence: "Perfect, now …", "No, I meant …". */
const LEADING_POSITIVE = /^(?:thanks|thank you|thx|perfect|great|awesome|excellent|nice|cool|brilliant|exactly|good)\b[\s,!.:;—–-]*/i;
const LEADING_NEGATIVE = /^(?:no|nope|nah|wrong|incorrect|not quite|not really)\b(?!\s+(?:problem|worries|thanks|need))[\s,!.:;—–-]*/i;

const FORMAT_TARGET =
  /\b(?:as|in|into|to)\s+(?:a\s+|an\s+)?(?:json|yaml|xml|csv|markdown|table|bullet(?:ed)? (?:points|list)|bullets|list|numbered list|code block|plain text|one line|paragraph)\b/i;
const STYLE_CHANGE =
  /\b(?:shorter|longer|briefer|more concise|more detail(?:ed|s)?|less detail(?:ed)?|simpler|simplify|rephrase|reword|reformat|elaborate|expand on|explain (?:it|that|this)(?: again| more| differently| better)?|summari[sz]e (?:it|that|this)|tl;?dr|in simpler terms|step by step|say (?:that|it) again|repeat (?:that|it)|go on|continue|keep going)\b/i;
const CLARIFY = /\bwhat do you mean\b|\bwhat does (?:that|this|it) mean\b|\bclarify\b|\bi don['’]?t understand\b|^(?:what|which|why)\??$|^what['’]?s (?:that|this)\??$|\bwhy (?:did you|is that|does that)\b/i;
const DEICTIC = /\b(?:it|that|this|them|those|the (?:answer|response|above|same|result|output|code|list))\b/i;
const META =
  /^(?:hi|hello|hey|yo|good (?:morning|afternoon|evening))\b[\s!.]*$|\b(?:what can you do|who are you|are you (?:a bot|an ai|there|real)|what are you|how do you work|what model are you)\b/i;
const ACK = /^(?:ok(?:ay)?|k|sure|got it|i see|understood|alright|right|yes|yep|yeah|fine|cool|hmm+)[\s!.]*$/i;
/** What may trail a thank-you without asking anything: "Thanks for the help", "Thank you so much". */
const GRATITUDE_TAIL = /^(?:for\b[^?]*|a lot|so much|very much|again|a bunch)[\s!.]*$/i;
const CONNECTOR =
  /^(?:(?:now|next|also|and|ok(?:ay)?|so|then|alright|one more thing|another question|moving on|anyway|hi|hello|hey|good (?:morning|afternoon|evening))\b[\s,:;!.—–-]*)+/i;

function words(s: string): number {
  return s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

function sentenceCue(sentence: string): FeedbackCue | undefined {
  if (/\?\s*$/.test(sentence)) return undefined;
  for (const rule of SENTENCE_RULES) {
    const m = rule.re.exec(sentence);
    if (m) return { polarity: rule.polarity, kind: rule.kind, text: m[0].trim() };
  }
  if (words(sentence) <= SHORT_WORDS) {
    const m = SHORT_PRAISE.exec(sentence);
    if (m) return { polarity: 'positive', kind: /works/i.test(m[0]) ? 'resolution' : 'explicit', text: m[0] };
  }
  return undefined;
}

/** Splits a sentence's opening interjection off: "Perfect, thanks! Now …" → cue "Perfect" + the rest. */
function leadingCue(sentence: string, atMessageStart: boolean): { cue?: FeedbackCue; rest: string } {
  const neg = atMessageStart ? LEADING_NEGATIVE.exec(sentence) : null;
  if (neg && neg[0].trim()) {
    return { cue: { polarity: 'negative', kind: 'correction', text: neg[0].replace(/[\s,!.:;—–-]+$/, '') }, rest: sentence.slice(neg[0].length) };
  }
  const pos = LEADING_POSITIVE.exec(sentence);
  // "Good" / "Great" open many requests ("Great, now …") but "good morning" or "nice to meet you" do not praise.
  if (pos && pos[0].trim() && !/^(?:good|nice)\s+(?:morning|afternoon|evening|to)\b/i.test(sentence)) {
    return { cue: { polarity: 'positive', kind: 'explicit', text: pos[0].replace(/[\s,!.:;—–-]+$/, '') }, rest: sentence.slice(pos[0].length) };
  }
  return { rest: sentence };
}

/** Negative evidence outweighs positive: "Thanks, but that's wrong" is a rejection. */
function strongest(cues: readonly FeedbackCue[]): FeedbackCue | undefined {
  return cues.find((c) => c.polarity === 'negative') ?? cues[0];
}

function requestKind(rest: string, agentAsked: boolean): RequestKind {
  const t = rest.trim();
  if (t === '' || ACK.test(t)) return 'none';
  if (META.test(t)) return 'meta';
  const n = words(t);
  if (CLARIFY.test(t) || STYLE_CHANGE.test(t)) return 'followup';
  if (FORMAT_TARGET.test(t) && (n <= 8 || DEICTIC.test(t))) return 'followup';
  // The user answering the agent's own clarifying question ("Which OS?" → "Ubuntu 22.04").
  if (agentAsked && !t.includes('?') && n <= 8) return 'followup';
  return stemSet(t).size > 0 ? 'query' : 'none';
}

export interface ReadContext {
  /** The agent's last answer ended with a question to the user. */
  agentAsked: boolean;
}

export function readUserMessage(text: string, ctx: ReadContext = { agentAsked: false }): UserMessageReading {
  const cues: FeedbackCue[] = [];
  const content: string[] = [];
  sentences(text).forEach((raw, i) => {
    let sentence = raw.trim();
    // Peel opening interjections ("Perfect, thanks!", "No, no —") before judging what is left.
    for (let guard = 0; guard < 4; guard++) {
      const lead = leadingCue(sentence, i === 0 && guard === 0);
      if (!lead.cue) break;
      cues.push(lead.cue);
      sentence = lead.rest.trim();
      if (lead.cue.polarity === 'positive' && GRATITUDE_TAIL.test(sentence)) sentence = '';
    }
    if (sentence === '') return;
    const cue = sentenceCue(sentence);
    // A cue inside a longer sentence that also asks something keeps the sentence as content as well.
    if (cue) cues.push(cue);
    if (!cue || (cue.kind === 'correction' && words(sentence) > 3) || /\?\s*$/.test(sentence)) content.push(sentence);
  });
  const joined = content.join(' ').trim();
  const stripped = joined.replace(CONNECTOR, '').trim();
  // "Now how do I …" → "How do I …": a stripped lead-in leaves the query as the user would have asked it alone.
  const rest = stripped === joined ? joined : stripped.charAt(0).toUpperCase() + stripped.slice(1);
  // A bare greeting is a meta request even though the lead-in stripper would empty it.
  const request = META.test(joined) ? 'meta' : requestKind(rest, ctx.agentAsked);
  return { cue: strongest(cues), request, rest };
}
