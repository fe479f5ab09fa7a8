"""Audio in and out: WAV files and the microphone, the recognisers, and tabletop's voice.

The speech layer turns sound into :class:`~tabletop.language.transcript.Transcript` values and
announcements into sound. It never guesses at game meaning: grammars come from the language
layer, and the table decides what a transcript means.

Public API (import from the submodules; this package imports nothing heavy):

- :mod:`tabletop.speech.audio`: ``Utterance``, ``read_wav``, ``write_wav``, ``is_silent``, ``has_speech``, ``pad``
- :mod:`tabletop.speech.recognisers`: ``Recogniser``, ``default_recogniser(engine=None)``, ``make_recogniser``
  (``PocketSphinxRecogniser`` — embedded default; ``VoskRecogniser`` — when a model is installed)
- :mod:`tabletop.speech.microphone`: ``Microphone`` (``utterances()``, ``transcripts(recogniser)``,
  ``next_utterance(timeout)``, ``mute(bool)``)
- :mod:`tabletop.speech.voice`: ``Voice`` (``say``, ``wait``, ``on_speaking``, quiet mode)
- :mod:`tabletop.speech.synth`: ``speak``, ``realistic``, ``babble``, ``table_noise``, ``mix`` (test speech)
- :mod:`tabletop.speech.models`: ``find_vosk_model``, ``install_vosk_model``, ``speech_model_statuses``
- :mod:`tabletop.speech.adapt`: ``adapt`` (a voice's recordings -> adapted model, with sphinxtrain), ``pooled_model``
- :mod:`tabletop.speech.profiles`: players' voice profiles on disk (``enroll``, ``load_profile``, ``forget``,
  ``game_recogniser``); :mod:`tabletop.speech.enrollment`: the prompts and recording them
- :mod:`tabletop.speech.recognisers.profiled`: ``SpeakerProfiles`` (each utterance heard with the expected speaker's profile)
"""
