/**
 * Long user–assistant chats: ~45 sessions of a person asking an assistant for help. The user's turns say
 * things about their life in passing; the assistant's answers run to several hundred words of advice on the
 * same subjects (and so share the question's topic words). Questions ask, in other words, what the user said.
 * Twelve later sessions with tuning questions only follow (chats-later.ts).
 */
import { LATER_QUESTIONS, LATER_SESSIONS, type LaterSession } from './chats-later.js';
import { alternate, pick, rng, sample, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';

type Topic = 'running' | 'cooking' | 'programming' | 'travel' | 'finance' | 'gardening' | 'music' | 'career' | 'pets' | 'home' | 'health' | 'reading' | 'language' | 'family' | 'hobbies';

/** What the user said that a question is about: written first, with its questions. */
const FACTS: { key: string; topic: Topic; text: string }[] = [
  { key: 'race', topic: 'running', text: "I signed up for the Porto half marathon in October, so I need to get my weekly mileage up. How should I structure the next few months?" },
  { key: 'allergy', topic: 'cooking', text: 'My partner is allergic to sesame, so anything with tahini is out for us. Could you suggest a few weeknight dinners?' },
  { key: 'node', topic: 'programming', text: "At work we're stuck on Node 18 because the payments service still depends on an old native module. What's the least painful way to plan an upgrade?" },
  { key: 'sapporo', topic: 'travel', text: "We're flying to Sapporo in February for the snow festival. What should we pack and how many days should we plan?" },
  { key: 'invest', topic: 'finance', text: 'I put about 600 euros a month into an index fund through my bank. Is it worth switching to a cheaper broker?' },
  { key: 'tomatoes', topic: 'gardening', text: 'The tomatoes on my balcony keep splitting after heavy rain. Is there anything I can do about it this season?' },
  { key: 'cello', topic: 'music', text: "I've been learning the cello for two years now, mostly Bach suites. How do I get my intonation cleaner in the higher positions?" },
  { key: 'lead', topic: 'career', text: "My manager offered me the team lead role, but I'd have to give up most of my coding time. How do people usually decide on something like this?" },
  { key: 'miso', topic: 'pets', text: 'Our beagle Miso gets anxious during thunderstorms and hides in the bathtub. How can we help him feel safer?' },
  { key: 'boiler', topic: 'home', text: 'The landlord finally agreed to replace the leaking boiler next Tuesday. Anything I should check once the plumbers are done?' },
  { key: 'knee', topic: 'health', text: 'My physio said the knee pain comes from a weak gluteus medius. Which exercises can I do at home?' },
  { key: 'leguin', topic: 'reading', text: 'I just finished The Left Hand of Darkness and loved the world-building. What should I read next?' },
  { key: 'portuguese', topic: 'language', text: "I'm doing Duolingo Portuguese for twenty minutes every morning before work. How do I move beyond the app?" },
  { key: 'jenkins', topic: 'programming', text: 'Our team moved from Jenkins to GitHub Actions last quarter and builds are twice as fast now. How should we cache dependencies properly?' },
  { key: 'bubbles', topic: 'cooking', text: 'I bake sourdough every Sunday with a starter I named Bubbles. Why is my crumb so tight lately?' },
  { key: 'passport', topic: 'travel', text: 'My passport expires in April, so I have to renew it before the conference in Montreal. How early should I apply?' },
  { key: 'lyon', topic: 'finance', text: "We're saving for a deposit and hope to buy a flat in Lyon by next summer. How much should we keep aside for fees?" },
  { key: 'wedding', topic: 'family', text: 'My sister Inês is getting married in Braga in June and asked me to give a speech. How long should it be?' },
  { key: 'shins', topic: 'running', text: 'I got shin splints last year when I ramped up too quickly, so I want to be careful this time. What are the warning signs?' },
  { key: 'remote', topic: 'career', text: 'I work remotely from Lisbon for a logistics startup based in Berlin. How do I stay visible to the people at headquarters?' },
  { key: 'quartet', topic: 'music', text: "I'm playing in a string quartet concert at the municipal library on the 14th. How do I deal with stage nerves?" },
  { key: 'blueberries', topic: 'gardening', text: 'I planted three blueberry bushes in an acidic soil mix along the fence. How often should they be watered?' },
  { key: 'decaf', topic: 'health', text: "I switched to decaf after 2pm because I was sleeping badly. What else helps with falling asleep?" },
  { key: 'postgres', topic: 'programming', text: 'I prefer Postgres over MongoDB for anything where money is involved. How would you model refunds in a relational schema?' },
  { key: 'ebike', topic: 'hobbies', text: 'I sold the old Golf and now ride an e-bike to the office every day. What maintenance does the battery need?' },
  { key: 'mushrooms', topic: 'cooking', text: 'My kids refuse anything with mushrooms, even when they are hidden in a sauce. Any family recipes that work around that?' },
  { key: 'kerry', topic: 'travel', text: 'Last summer we rented a campervan and drove the Ring of Kerry. This year we want something similar but warmer. Ideas?' },
  { key: 'bouldering', topic: 'hobbies', text: 'I started bouldering twice a week at the gym near the river. How do I avoid hurting my fingers?' },
  { key: 'card', topic: 'finance', text: 'I still owe about 4,000 on a credit card from the wedding and want to clear it before anything else. What order should I pay things off in?' },
  { key: 'middlemarch', topic: 'reading', text: "My book club is reading Middlemarch this month and I'm far behind. How can I catch up without skimming?" },
  { key: 'figo', topic: 'pets', text: 'We adopted a second cat, a grey tabby called Figo. How do we introduce him to the dog?' },
  { key: 'review', topic: 'career', text: "I have a performance review on Friday and I'm nervous about the missed Q3 deadline. How do I talk about it honestly?" },
];

/** Questions about what the user said, worded apart from it; evidence by fact key. */
const QUESTIONS: { q: string; keys: string[] }[] = [
  { q: 'Which race did I register for this autumn?', keys: ['race'] },
  { q: 'What food can my other half not eat?', keys: ['allergy'] },
  { q: "Why can't my company move to a newer JavaScript runtime?", keys: ['node'] },
  { q: 'Where are we heading for the winter holiday?', keys: ['sapporo'] },
  { q: 'How much money do I set aside for investments every month?', keys: ['invest'] },
  { q: 'What was going wrong with the vegetables I grow outside my flat?', keys: ['tomatoes'] },
  { q: 'Which instrument am I learning, and for how long?', keys: ['cello'] },
  { q: 'What promotion did my boss put on the table?', keys: ['lead'] },
  { q: "How does my dog behave when there's bad weather?", keys: ['miso'] },
  { q: 'What is being fixed in my rented apartment?', keys: ['boiler'] },
  { q: 'What did the physiotherapist say was behind my joint pain?', keys: ['knee'] },
  { q: 'Which science fiction book did I finish recently?', keys: ['leguin'] },
  { q: 'Which language am I practising, and when?', keys: ['portuguese'] },
  { q: 'What build system did my team abandon?', keys: ['jenkins'] },
  { q: 'What did I call my bread culture?', keys: ['bubbles'] },
  { q: 'Which travel document do I need to sort out before the trip to Canada?', keys: ['passport'] },
  { q: 'In which French city are we hoping to purchase a home?', keys: ['lyon'] },
  { q: "Whose marriage ceremony is coming up, and where?", keys: ['wedding'] },
  { q: 'What injury did I get from increasing my training too fast?', keys: ['shins'] },
  { q: 'Where is my employer headquartered?', keys: ['remote'] },
  { q: 'Where is my upcoming chamber music performance?', keys: ['quartet'] },
  { q: 'What fruit shrubs did I put in the garden?', keys: ['blueberries'] },
  { q: 'What did I change about my coffee to sleep better?', keys: ['decaf'] },
  { q: 'Which database do I favour for financial data?', keys: ['postgres'] },
  { q: 'How do I get to work these days, now that the car is gone?', keys: ['ebike'] },
  { q: 'Which ingredient will my children not touch?', keys: ['mushrooms'] },
  { q: 'Which road trip did we do in Ireland with a motorhome?', keys: ['kerry'] },
  { q: 'What kind of climbing have I taken up?', keys: ['bouldering'] },
  { q: 'Which debt am I trying to pay down first?', keys: ['card'] },
  { q: 'What is the reading group working through right now?', keys: ['middlemarch'] },
  { q: "What's the name of the new cat we took in?", keys: ['figo'] },
  { q: 'What am I worried my manager will raise at my appraisal?', keys: ['review'] },
  { q: 'Which two animals live with us?', keys: ['miso', 'figo'] },
  { q: 'Which events in northern Portugal did I tell you about?', keys: ['race', 'wedding'] },
  { q: 'What problems with my legs have I mentioned?', keys: ['knee', 'shins'] },
  { q: "What have I told you about the technology stack at my job?", keys: ['node', 'jenkins', 'postgres'] },
];

/** Requests with no fact in them, on each topic: the user's other turns. */
const REQUESTS: Record<Topic, string[]> = {
  running: ['Can you give me a beginner running plan?', 'What should I eat before a long run?', 'How do I pick running shoes?', 'Is it fine to run every day?'],
  cooking: ['What is a quick vegetarian dinner?', 'How do I keep rice from getting mushy?', 'Can you explain how to braise meat?', 'What spices go well with lentils?'],
  programming: ['How do I structure a REST API project?', 'What is the difference between a process and a thread?', 'How should I write unit tests for async code?', 'Can you explain database indexes?'],
  travel: ['How do I find cheap flights?', 'What should go in a carry-on bag?', 'How do I deal with jet lag?', 'Is travel insurance worth it?'],
  finance: ['How big should an emergency fund be?', 'What is dollar-cost averaging?', 'How do I make a monthly budget?', 'Should I pay off debt or invest first?'],
  gardening: ['When should I prune roses?', 'How do I start a compost heap?', 'What herbs grow well indoors?', 'How do I keep slugs away?'],
  music: ['How often should I practise scales?', 'How do I read music faster?', 'What is a good metronome routine?', 'How do I memorise a piece?'],
  career: ['How do I write a good CV?', 'How do I ask for a raise?', 'What should I ask in a job interview?', 'How do I give feedback to a colleague?'],
  pets: ['How often should a dog be walked?', 'What do cats need in a new home?', 'How do I trim a dog’s nails?', 'What human foods are toxic to pets?'],
  home: ['How do I bleed a radiator?', 'What is the best way to remove mould?', 'How do I reduce my heating bill?', 'How do I fix a dripping tap?'],
  health: ['How much water should I drink a day?', 'What is a good stretching routine?', 'How do I build a habit of exercising?', 'How much sleep do adults need?'],
  reading: ['How do I read more books in a year?', 'What are some classic novels worth reading?', 'How do I keep notes on what I read?', 'Are audiobooks as good as reading?'],
  language: ['How do I learn vocabulary faster?', 'Is grammar or speaking more important?', 'How do I find a language exchange partner?', 'How long does it take to become fluent?'],
  family: ['How do I plan a family reunion?', 'What is a good gift for grandparents?', 'How do I keep in touch with relatives abroad?', 'How do I host a big family dinner?'],
  hobbies: ['What is a good hobby to pick up in winter?', 'How do I get into photography?', 'How do I start woodworking?', 'What board games are good for groups?'],
};

/** Sentences of advice per topic; an answer is a long draw from its topic's list and the general one. */
const ADVICE: Record<Topic, string[]> = {
  running: [
    'Build your weekly distance gradually, by no more than ten percent a week.',
    'Keep most of your runs at an easy, conversational pace.',
    'A long run once a week builds endurance more than anything else.',
    'Add strides or short intervals once a week after the first month.',
    'Rest days are part of the plan, not a break from it.',
    'Good shoes matter, but consistency matters more.',
    'Taper the last two weeks before a race so you arrive fresh.',
    'Practise your race-day breakfast and drinks on long training runs.',
    'Strength work for the hips and calves helps prevent common running injuries.',
    'If something hurts for more than a few days, see a professional before running through it.',
  ],
  cooking: [
    'Cook a big batch of grains at the start of the week to save time.',
    'Roasting vegetables at a high temperature brings out their sweetness.',
    'Season in layers rather than all at the end.',
    'A squeeze of lemon brightens almost any dish.',
    'Keep a few sauces in the fridge so dinner comes together quickly.',
    'Read labels carefully when cooking for anyone with an allergy.',
    'Sheet-pan dinners mean less washing up and little active time.',
    'Let meat rest after cooking so the juices stay inside.',
    'Bread dough needs warmth and time; a cold kitchen slows fermentation.',
    'Simple recipes repeated often become the most reliable family meals.',
  ],
  programming: [
    'Upgrade dependencies in small steps and run the test suite after each one.',
    'Pin versions in your lockfile so builds are reproducible.',
    'A good test suite is what makes large refactors safe.',
    'Read the changelog of every major version before upgrading.',
    'Native modules are often the hardest part of a runtime upgrade.',
    'Cache dependencies in CI keyed by the lockfile hash.',
    'Relational databases give you transactions and constraints for money flows.',
    'Write the migration plan down and share it with the team before starting.',
    'Feature flags let you ship changes gradually and roll back quickly.',
    'Monitor error rates closely after every deploy.',
  ],
  travel: [
    'Book flights on weekdays and compare a few airports nearby.',
    'Pack layers rather than one heavy coat.',
    'Check passport validity well before you book anything.',
    'Keep digital copies of your documents in a secure place.',
    'Plan one free day for every three days of sightseeing.',
    'Local public transport passes often save money.',
    'Winter destinations need waterproof boots and good gloves.',
    'Travel insurance is worth it for long or expensive trips.',
    'Campervan trips are best planned around where you can park overnight.',
    'Learn a few words of the local language; people appreciate it.',
  ],
  finance: [
    'Keep three to six months of expenses as an emergency fund.',
    'Low-cost index funds are a sensible default for long-term investing.',
    'Fees compound just like returns, so compare them carefully.',
    'Pay off high-interest debt before investing more.',
    'Automate your savings on payday so you never see the money.',
    'When buying a home, budget for notary fees and moving costs on top of the deposit.',
    'Review your budget every few months rather than every day.',
    'Diversify across regions and asset classes.',
    'A credit card balance at a high rate is usually the first thing to clear.',
    'Write down your financial goals with a date attached.',
  ],
  gardening: [
    'Water deeply and less often so roots grow down.',
    'Mulch keeps soil moist and cool in summer.',
    'Irregular watering is a common cause of split fruit.',
    'Containers dry out faster than beds, especially on balconies.',
    'Acid-loving plants need rainwater or acidified water where tap water is hard.',
    'Feed fruiting plants with a potassium-rich fertiliser.',
    'Remove diseased leaves promptly to stop problems spreading.',
    'Plant in groups so pollinators find the flowers.',
    'Check drainage holes in every pot.',
    'Keep a notebook of what you planted and when.',
  ],
  music: [
    'Slow practice is the fastest way to play accurately.',
    'Record yourself and listen back with fresh ears.',
    'Use a drone note to train intonation.',
    'Break a difficult passage into small sections.',
    'Warm up with scales and long tones before repertoire.',
    'Practise performing for friends before a concert.',
    'Breathing slowly before going on stage calms the nerves.',
    'Shifting cleanly depends on a relaxed left hand.',
    'A teacher can spot habits you cannot see yourself.',
    'Short daily practice beats one long weekly session.',
  ],
  career: [
    'Write down what you enjoy most about your current work before deciding.',
    'Leadership roles trade individual output for team output.',
    'Ask for a trial period if you are unsure about a new role.',
    'Keep a brag document of your achievements throughout the year.',
    'Be honest about missed goals and explain what you learned.',
    'Regular one-to-ones keep you visible when working remotely.',
    'Visit the office in person a few times a year if you can.',
    'Ask your manager what success looks like in the next six months.',
    'Mentoring others is a good way to test whether you enjoy leading.',
    'Negotiate based on market data, not on what you need.',
  ],
  pets: [
    'Create a safe den where your pet can retreat.',
    'Desensitisation to noises works best with recordings played softly at first.',
    'Introduce new animals slowly, with scent swapping before meeting.',
    'Keep feeding areas separate for each animal.',
    'A regular routine helps anxious animals settle.',
    'Ask your vet about calming aids for stressful events.',
    'Reward calm behaviour rather than punishing fear.',
    'Provide vertical space for cats in a home with dogs.',
    'Supervise the first meetings closely.',
    'Regular exercise reduces a lot of anxious behaviour.',
  ],
  home: [
    'Ask for the gas safety certificate after any boiler work.',
    'Check the pressure gauge on the boiler once a month.',
    'Bleed radiators at the start of the heating season.',
    'Keep receipts and reports for everything the landlord repairs.',
    'Ventilate the bathroom after showers to prevent mould.',
    'Draught excluders are a cheap way to cut heating costs.',
    'Test smoke alarms every month.',
    'Photograph the flat when you move in and when you move out.',
    'Replace washers on dripping taps before they get worse.',
    'Know where the water stopcock is before you need it.',
  ],
  health: [
    'Clamshells and side planks strengthen the hip muscles.',
    'Do strength exercises two or three times a week.',
    'Caffeine stays in the body for many hours.',
    'A regular bedtime helps more than any supplement.',
    'Keep screens out of the bedroom in the last hour before sleep.',
    'Increase exercise gradually to avoid injury.',
    'Drink water through the day rather than all at once.',
    'Stretch gently after exercise, not before.',
    'A short walk after meals helps digestion.',
    'If pain persists, get it checked rather than guessing.',
  ],
  reading: [
    'Keep a book with you for spare moments.',
    'It is fine to abandon a book that is not working for you.',
    'Reading a chapter summary after each session helps with long novels.',
    'Audiobooks count, and they suit commutes.',
    'Ursula K. Le Guin and Octavia Butler are good next steps for thoughtful science fiction.',
    'Book clubs are easier with a weekly page target.',
    'Keep a simple list of what you read each year.',
    'Alternate long classics with shorter, lighter books.',
    'Victorian novels reward patience; the payoff comes late.',
    'Read the introduction after the novel, not before, to avoid spoilers.',
  ],
  language: [
    'Apps are good for habits, but you also need real conversations.',
    'Watch series with subtitles in the language you are learning.',
    'A language exchange partner is free and motivating.',
    'Learn whole phrases rather than isolated words.',
    'Spaced repetition helps vocabulary stick.',
    'Speak from the first week, even badly.',
    'Read children’s books or graded readers early on.',
    'Keep a notebook of expressions you hear.',
    'Consistency matters more than the length of each session.',
    'Listening practice makes speaking easier later.',
  ],
  family: [
    'A good speech is short: three to five minutes is plenty.',
    'Tell one story that shows who the person is.',
    'Practise the speech out loud a few times.',
    'End a toast by raising a glass to the couple.',
    'Shared calendars help families coordinate.',
    'Video calls on a fixed day keep relatives close.',
    'Book travel for family events early; prices rise.',
    'A handwritten letter means a lot to older relatives.',
    'Keep family traditions simple so they last.',
    'Let everyone bring one dish to big dinners.',
  ],
  hobbies: [
    'Warm up your fingers and shoulders before climbing.',
    'Rest days prevent finger tendon injuries.',
    'An e-bike battery lasts longest between 20 and 80 percent charge.',
    'Keep the chain clean and lubricated.',
    'Join a club to learn faster and meet people.',
    'Start with cheap equipment until you know you like the hobby.',
    'Set small goals so progress is visible.',
    'Watch technique videos and then try one idea at a time.',
    'Store batteries indoors in cold weather.',
    'Climbing with friends makes it safer and more fun.',
  ],
};

const GENERAL = [
  'That is a great question, and it depends a little on your situation.',
  'Here are a few things to keep in mind.',
  'Everyone is different, so adjust this to what works for you.',
  'If you want, I can go into more detail on any of these points.',
  'The most important thing is to be consistent over time.',
  'Start small and build from there.',
  'It can help to write your plan down and review it weekly.',
  'Do not worry about getting everything perfect at the start.',
  'Many people find it useful to ask a friend to keep them accountable.',
  'Let me know how it goes and we can adjust the plan.',
];

const TOPICS = Object.keys(REQUESTS) as Topic[];

function answer(r: () => number, topic: Topic): string {
  const n = 12 + Math.floor(r() * 10);
  const sentences = [pick(r, GENERAL), ...sample(r, ADVICE[topic], Math.min(n - 3, ADVICE[topic].length)), ...sample(r, GENERAL, 2)];
  // Two paragraphs, as assistants write.
  const cut = Math.ceil(sentences.length / 2);
  const more = sample(r, ADVICE[pick(r, TOPICS)], 4);
  return `${sentences.slice(0, cut).join(' ')}\n\n${sentences.slice(cut).join(' ')} ${more.join(' ')}`;
}

/**
 * A later session's answer: several hundred words (25 to 33 sentences) in three paragraphs, opening with the
 * user's own words when the turn has an echo, mostly the conversation's advice and its topic's.
 */
export function longAnswer(r: () => number, s: LaterSession, echo: string | undefined): string {
  const own = [...sample(r, s.advice, s.advice.length), ...sample(r, ADVICE[s.topic], 8)];
  const other = sample(r, ADVICE[pick(r, TOPICS)], 6 + Math.floor(r() * 6));
  const sentences = [echo ?? pick(r, GENERAL), ...sample(r, GENERAL, 2), ...own, ...other, ...sample(r, GENERAL, 3 + Math.floor(r() * 3))];
  const a = Math.ceil(sentences.length / 3);
  return [sentences.slice(0, a), sentences.slice(a, 2 * a), sentences.slice(2 * a)].map((p) => p.join(' ')).join('\n\n');
}

/**
 * Lays `sessions` out from time `t` as user turns each followed by a long assistant answer drawn from `r`, appending to
 * `docs` and noting each keyed user turn's id in `factDoc`; returns the time after the last session.
 */
export function layChatSessions(
  sessions: readonly LaterSession[],
  name: (i: number) => string,
  r: () => number,
  t: number,
  docs: CorpusDoc[],
  factDoc: Map<string, string>,
): number {
  sessions.forEach((s, i) => {
    const session = name(i);
    let n = 0;
    for (const turn of s.turns) {
      const uid = `${session}:${++n}`;
      docs.push({ id: uid, type: 'message', name: 'user', session, ts: new Date(t).toISOString(), content: turn.user });
      if (turn.key) factDoc.set(turn.key, uid);
      t += 60_000;
      docs.push({ id: `${session}:${++n}`, type: 'message', name: 'assistant', session, ts: new Date(t).toISOString(), content: longAnswer(r, s, turn.echo) });
      t += 180_000;
    }
    t += (3 + Math.floor(r() * 8)) * 86_400_000;
  });
  return t;
}

export function chatsCorpus(): Corpus {
  const r = rng(22_01);
  const docs: CorpusDoc[] = [];
  const factDoc = new Map<string, string>();
  // 32 sessions with one fact each, 14 without, shuffled.
  const plan: ({ fact: (typeof FACTS)[number] } | { topic: Topic })[] = [...FACTS.map((fact) => ({ fact })), ...Array.from({ length: 14 }, () => ({ topic: pick(r, TOPICS) }))];
  const sessions = sample(r, plan, plan.length);
  let t = Date.UTC(2024, 0, 8, 9, 0);
  sessions.forEach((s, i) => {
    const session = `S${i + 1}`;
    const topic = 'fact' in s ? s.fact.topic : s.topic;
    const turns = sample(r, REQUESTS[topic], 2);
    if ('fact' in s) turns.splice(Math.floor(r() * 3), 0, s.fact.text);
    let n = 0;
    for (const user of turns) {
      const uid = `${session}:${++n}`;
      docs.push({ id: uid, type: 'message', name: 'user', session, ts: new Date(t).toISOString(), content: user });
      if ('fact' in s && user === s.fact.text) factDoc.set(s.fact.key, uid);
      t += 60_000;
      docs.push({ id: `${session}:${++n}`, type: 'message', name: 'assistant', session, ts: new Date(t).toISOString(), content: answer(r, topic) });
      t += 120_000;
    }
    t += (2 + Math.floor(r() * 5)) * 86_400_000;
  });
  // The later sessions (chats-later.ts) follow, drawn from their own stream so the first part stays as it was.
  const later = rng(22_02);
  t = layChatSessions(LATER_SESSIONS, (i) => `S${sessions.length + i + 1}`, later, t, docs, factDoc);
  const questions: CorpusQuestion[] = alternate(QUESTIONS).map((q, i) => ({ id: `q${i + 1}`, q: q.q, evidence: q.keys.map((k) => factDoc.get(k)!), split: q.split }));
  // Tuning questions added after the split above was frozen: tune only, ids `tq…`.
  LATER_QUESTIONS.forEach((q, i) => questions.push({ id: `tq${i + 1}`, q: q.q, evidence: q.keys.map((k) => factDoc.get(k)!), split: 'tune' }));
  return { name: 'assistant-chats', shape: 'long user–assistant chats: long assistant answers, questions about what the user said', docs, questions };
}
