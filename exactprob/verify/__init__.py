"""Independent checks of the engine's exact numbers from outside it: the Storm model
checker's exact engine (:mod:`exactprob.verify.storm`), fed the explored graph in its
own format. (The float simulators written from each game's rules are in the games.)"""
