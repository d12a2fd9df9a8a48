/**
 * Later sessions of the long user–assistant chats, with tuning questions only (added after the first
 * tune/eval split was frozen; the eval questions and their evidence are unchanged). Written before any
 * tuning on them, in the shape of real assistant histories: the user's turns are long and say several
 * things in passing, the assistant's answers run to several hundred words and often echo the user's own
 * words back, follow-up turns share the topic without the fact, and some questions need two sessions
 * (one of them sometimes an earlier session of the first part), or the order of two things told.
 *
 * Kinds of question, for reading the results (not used by the bench): `named` (the question repeats a
 * rare word of the evidence: a name, a brand, a place), `reworded` (it shares little but the meaning),
 * `multi` (evidence in several sessions), `order` (which came first, or how something changed).
 */
export type LaterTopic = 'running' | 'cooking' | 'programming' | 'travel' | 'finance' | 'gardening' | 'music' | 'career' | 'pets' | 'home' | 'health' | 'reading' | 'language' | 'family' | 'hobbies';

export interface LaterTurn {
  /** The user's words. */
  user: string;
  /** A fact key when the turn tells something a question asks about. */
  key?: string | undefined;
  /** The assistant's first sentence when it repeats what the user said. */
  echo?: string | undefined;
}

export interface LaterSession {
  topic: LaterTopic;
  /** Advice written for this conversation, mixed into the answers with the topic's general advice. */
  advice: string[];
  turns: LaterTurn[];
}

export const LATER_SESSIONS: LaterSession[] = [
  {
    topic: 'home',
    advice: [
      'Secondary glazing panels can be fitted inside the existing frame and removed in summer.',
      'Acoustic seals around the sash stop most of the noise that leaks through gaps.',
      'Heavy lined curtains help with high frequencies but do little against the rumble of engines.',
      'A white-noise machine masks sudden sounds better than silence does.',
      'Ask the landlord before fixing anything permanent to the window frame.',
      'Foam earplugs rated above 30 decibels are the cheapest fix of all.',
    ],
    turns: [
      {
        user: "We moved into a flat above a bakery on Rua das Flores in March, and the delivery vans start unloading at five in the morning. The rent is good and honestly I love the smell of bread, but I keep waking up way too early. How do I soundproof a bedroom window without replacing it?",
        key: 'bakery',
        echo: 'Living above a bakery with early deliveries is a classic noise problem, and there is a lot you can do without new windows.',
      },
      { user: 'Would heavy curtains be enough on their own, or do I really need something like secondary glazing?' },
      {
        user: "Another thing: I set up a desk in the spare room and bought a used Herman Miller Aeron from a colleague who was leaving, 300 euros. It's great, but is it worth getting the lumbar pad for it?",
        key: 'aeron',
        echo: 'An Aeron for 300 euros is a very good deal, and yes, the lumbar support is worth considering.',
      },
    ],
  },
  {
    topic: 'running',
    advice: [
      'Moving from a half to a full marathon in a year is realistic if the half went well.',
      'Peak marathon weeks often include a long run of 30 to 32 kilometres.',
      'Practise fuelling with gels every 40 minutes on long runs.',
      'After a race, take a full week of easy running or rest before building again.',
      'A half marathon time is a fair predictor of a sensible marathon goal pace.',
    ],
    turns: [
      {
        user: "Quick update from me: I finished the Porto half in 1:52, eight minutes faster than my goal, and my knee held up fine the whole way! I'd like to try a full marathon next year. Is going from a half to a full in twelve months realistic?",
        key: 'halfdone',
        echo: 'Congratulations on finishing the Porto half marathon in 1:52, that is a great result.',
      },
      { user: 'What does a typical week of marathon training look like at the peak?' },
      { user: 'And how many long runs over 30 kilometres should I do before race day?' },
    ],
  },
  {
    topic: 'pets',
    advice: [
      'Cats should lose weight slowly, about one percent of body weight a week.',
      'Feed measured meals rather than leaving the bowl full all day.',
      'Put the dog’s food where the cat cannot reach it, or feed them in separate rooms.',
      'Microchip feeders open only for the pet whose chip they recognise.',
      'Puzzle feeders slow a cat down and keep it busy.',
      'Weigh your cat every two weeks and note it down.',
    ],
    turns: [
      {
        user: "Figo had his vaccinations at the Clínica Veterinária do Bonfim yesterday and the vet said he's overweight, 5.8 kilos. She wants him down to about 5 by the summer. How do I put a cat on a diet when the dog keeps leaving food around?",
        key: 'vet',
        echo: 'Getting a cat from 5.8 down to 5 kilos by summer is a sensible goal, and the dog’s leftovers are the first thing to fix.',
      },
      { user: 'Are those automatic feeders with microchip readers any good, or a gimmick?' },
    ],
  },
  {
    topic: 'career',
    advice: [
      'In the first ninety days, listen more than you talk and learn how decisions are made.',
      'Ask your new manager how your work will be judged at the end of the first quarter.',
      'Meet each person on your team one to one in the first month.',
      'Ship something small early to build trust.',
      'A staff engineer role is about influence across teams more than personal output.',
      'Write down your first impressions; they are valuable and fade quickly.',
    ],
    turns: [
      {
        user: "Big news: I handed in my notice at the logistics startup. In May I start as a staff engineer at a climate-tech company here in Porto, Tidewater Energy, so I'll be back in an office three days a week. How do I make a good impression in the first ninety days?",
        key: 'newjob',
        echo: 'Congratulations on the staff engineer role at Tidewater Energy, the first ninety days matter a lot.',
      },
      { user: 'Should I ask for a formal onboarding plan, or just figure things out as I go?' },
    ],
  },
  {
    topic: 'cooking',
    advice: [
      'A lamb shoulder can be rubbed with its marinade up to two days ahead.',
      'Slow-roast lamb at a low temperature for five or six hours until it falls apart.',
      'Couscous salads and roasted carrots can be made the day before.',
      'Cook for twelve by scaling sides generously; main dishes matter less than people think.',
      'Let the meat rest under foil while you warm the sides.',
      'Write a timeline for the day of the party, hour by hour.',
    ],
    turns: [
      {
        user: "I'm hosting my in-laws for my partner's 40th birthday on Saturday, twelve people in total. I'm doing a slow-roasted lamb shoulder with harissa, and my mother-in-law is bringing her famous pastel de nata for dessert. How far ahead can I prep the lamb?",
        key: 'dinner',
        echo: 'A slow-roasted lamb shoulder with harissa is a great choice for twelve people.',
      },
      { user: 'What sides would go with it that I can make the day before?' },
      { user: 'How much lamb do I need per person, roughly?' },
    ],
  },
  {
    topic: 'travel',
    advice: [
      'Ten days on one island gives you time to slow down and follow the weather.',
      'Book whale-watching trips for the first days so you can rebook if the sea is rough.',
      'September in the Azores is usually mild, with showers that pass quickly.',
      'Seasickness tablets work best taken an hour before boarding.',
      'Sitting at the back of the boat, low and in the middle, reduces motion.',
      'Keep your eyes on the horizon and avoid reading on board.',
    ],
    turns: [
      {
        user: "We booked ten days on São Miguel in the Azores for late September: whale watching from Ponta Delgada and the hot springs at Furnas, and we'll rent a small car. Is ten days too long for one island?",
        key: 'azores',
        echo: 'Ten days on São Miguel is a relaxed pace, not too long at all.',
      },
      { user: "What's the weather usually like there in September?" },
      {
        user: 'One worry: I get seasick very easily, even on the short ferry across the river. Should I skip the whale watching, or is there something that actually helps?',
        key: 'seasick',
      },
    ],
  },
  {
    topic: 'finance',
    advice: [
      'Rebalancing once a year is enough for most long-term investors.',
      'A world index fund already holds emerging markets in proportion to their size.',
      'Raising your monthly contribution after a pay rise is one of the best habits there is.',
      'Check the broker’s custody and currency fees as well as its trading fees.',
      'Keep the emergency fund separate from the investment account.',
    ],
    turns: [
      {
        user: "I took your advice and moved my monthly investing to a low-cost broker, Trade Republic, and with the new salary I raised it from 600 to 750 euros a month. Should I rebalance once a year or more often?",
        key: 'broker',
        echo: 'Moving to a low-cost broker and raising your contribution to 750 euros a month are both good steps.',
      },
      { user: "What's a sensible split between world and emerging markets funds?" },
    ],
  },
  {
    topic: 'music',
    advice: [
      'A new player blends faster when the group rehearses slow chorales together.',
      'Agree on bowings early and mark them in every part.',
      'Two rehearsals a week is plenty for an amateur quartet with jobs.',
      'Record a run-through and listen for balance, not mistakes.',
      'Let the new member choose one piece for the programme.',
    ],
    turns: [
      {
        user: "Our quartet's violist moved to Madrid, so we auditioned two people and chose Marta, a retired music teacher who is lovely. Our next programme is Dvořák's American quartet in November. How do we help a new player blend in quickly?",
        key: 'viola',
        echo: 'Welcoming Marta into the quartet for the Dvořák is a good moment to rebuild your sound together.',
      },
      { user: 'How many rehearsals a week is reasonable for amateurs who all work full time?' },
    ],
  },
  {
    topic: 'gardening',
    advice: [
      'Start by covering half the plot with cardboard and mulch to smother the grass.',
      'Couch grass spreads by roots, so dig out every piece you can in the beds you use.',
      'No-dig beds can be built on top of weeds if the cardboard layer is thick.',
      'Grow potatoes in the first year; they break up the soil.',
      'Put a shed or a bench in early so you enjoy the time there.',
    ],
    turns: [
      {
        user: "I finally got a plot at the community allotment in Ramalde after two years on the waiting list! It's 50 square metres and mostly couch grass right now. Where do I even start?",
        key: 'allotment',
        echo: 'Congratulations on the allotment, two years is a long wait and 50 square metres is a good size.',
      },
      { user: 'Is no-dig gardening realistic on a plot that is this weedy?' },
    ],
  },
  {
    topic: 'language',
    advice: [
      'A tutor gives you the conversation practice that apps cannot.',
      'European Portuguese swallows unstressed vowels, which makes it sound faster.',
      'Mixing the two varieties is normal; people will understand you either way.',
      'Podcasts and the news from RTP are good listening for the European accent.',
      'Ask your tutor to correct the forms that differ, like the use of tu and você.',
    ],
    turns: [
      {
        user: "I dropped Duolingo and now have an online tutor from Recife, Camila, twice a week on italki. She says my accent is starting to sound Brazilian, which is funny given that I live in Portugal. Should I worry about mixing European and Brazilian Portuguese?",
        key: 'tutor',
        echo: 'Having Camila twice a week will do far more for you than the app did.',
      },
      { user: 'How do I practise listening to European Portuguese specifically?' },
    ],
  },
  {
    topic: 'health',
    advice: [
      'Vitamin D levels below 20 ng/ml are usually treated with a daily supplement.',
      'Oily fish, eggs and some time outdoors in daylight help vitamin D.',
      'Fibre from oats and beans lowers LDL cholesterol a little.',
      'Dietary cholesterol in eggs matters less than saturated fat for most people.',
      'Ask for a repeat test after three months to see whether the change worked.',
    ],
    turns: [
      {
        user: 'My yearly blood test came back: vitamin D was low, 18 ng/ml, so the GP put me on 2000 IU a day, and my cholesterol is borderline high too. Could my diet be part of it?',
        key: 'bloodtest',
        echo: 'A vitamin D level of 18 is common in winter, and 2000 IU a day is a usual dose.',
      },
      { user: 'Are eggs still considered bad for cholesterol?' },
    ],
  },
  {
    topic: 'hobbies',
    advice: [
      'Learn aperture priority first; it covers most situations.',
      'A 35mm lens on a crop sensor is a natural, versatile focal length.',
      'Shooting RAW leaves room to fix exposure and white balance later.',
      'Take the camera everywhere for a month; habit beats equipment.',
      'Keep a spare battery, especially on trips.',
    ],
    turns: [
      {
        user: "I bought a second-hand Fujifilm X-T3 with a 35mm lens, mainly to take pictures at the allotment and on the Azores trip. Which settings should I learn first?",
        key: 'camera',
        echo: 'The X-T3 with a 35mm lens is a lovely combination to learn on.',
      },
      { user: 'Is shooting RAW worth it for a beginner, or should I stick to JPEG?' },
    ],
  },
];

/** Tuning questions: evidence by fact key (keys of the first part's facts allowed, only tune ones). */
export const LATER_QUESTIONS: { q: string; keys: string[]; kind: 'named' | 'reworded' | 'multi' | 'order' }[] = [
  { q: 'What did I tell you about the bakery below our flat?', keys: ['bakery'], kind: 'named' },
  { q: 'Which office seat did I get second-hand, and what did I pay for it?', keys: ['aeron'], kind: 'reworded' },
  { q: 'What was my finishing time in the Porto half marathon?', keys: ['halfdone'], kind: 'named' },
  { q: 'What have I told you about the half marathon, from signing up to the finish?', keys: ['race', 'halfdone'], kind: 'multi' },
  { q: 'How heavy is my cat, and what weight should he get down to?', keys: ['vet'], kind: 'reworded' },
  { q: 'What did the vet at the Bonfim clinic say?', keys: ['vet'], kind: 'named' },
  { q: 'Which company did I say I am joining in May?', keys: ['newjob'], kind: 'reworded' },
  { q: 'Did we adopt the grey tabby before or after I resigned from the startup?', keys: ['figo', 'newjob'], kind: 'order' },
  { q: 'What am I cooking for the family birthday party?', keys: ['dinner'], kind: 'reworded' },
  { q: 'Who is bringing the pastel de nata?', keys: ['dinner'], kind: 'named' },
  { q: 'Which island are we visiting in the autumn, and for how long?', keys: ['azores'], kind: 'reworded' },
  { q: 'What problem do I have on boats?', keys: ['seasick'], kind: 'reworded' },
  { q: 'How has the amount I invest every month changed?', keys: ['invest', 'broker'], kind: 'order' },
  { q: 'Which broker did I move my investments to?', keys: ['broker'], kind: 'named' },
  { q: 'Who took the place of the violist who left our quartet?', keys: ['viola'], kind: 'named' },
  { q: 'What have I told you about my string quartet?', keys: ['quartet', 'viola'], kind: 'multi' },
  { q: 'How long did I wait for my vegetable plot?', keys: ['allotment'], kind: 'reworded' },
  { q: 'What equipment have I bought used?', keys: ['aeron', 'camera'], kind: 'multi' },
  { q: 'How has the way I study Portuguese changed?', keys: ['portuguese', 'tutor'], kind: 'order' },
  { q: 'Where is my tutor Camila from?', keys: ['tutor'], kind: 'named' },
  { q: 'What did my doctor prescribe after my blood results?', keys: ['bloodtest'], kind: 'reworded' },
  { q: 'What was my vitamin D level?', keys: ['bloodtest'], kind: 'named' },
  { q: 'Which camera did I buy?', keys: ['camera'], kind: 'reworded' },
  { q: 'What have I told you about Figo?', keys: ['figo', 'vet'], kind: 'multi' },
  { q: 'Which came first: getting the allotment or booking the trip to the islands?', keys: ['azores', 'allotment'], kind: 'order' },
  { q: 'What injuries or pains have I mentioned while running?', keys: ['shins', 'knee', 'halfdone'], kind: 'multi' },
];
