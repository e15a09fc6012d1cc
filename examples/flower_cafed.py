"""CA-Fed as a Flower strategy, in Flower's simulation engine (pip install 'fltheory[flower]')."""

import numpy as np
from flwr.app import ArrayRecord
from flwr.serverapp import ServerApp
from flwr.simulation import run_simulation

from fltheory.flower import AvailabilityDriver, CAFedStrategy, problem_client_app
from fltheory.markov import ProductChain
from fltheory.sim.problems import QuadraticSim
from fltheory.sim.settings import Schedule

N, ROUNDS = 4, 10
problem = QuadraticSim(u=np.arange(2.0 * N).reshape(N, 2), alpha=np.full(N, 1 / N))
# which clients are reachable: independent two-state Markov chains (π_k, λ₂,k)
chain = ProductChain(pi=[0.9, 0.6, 0.4, 0.2], lambda2=[0.1, 0.5, 0.8, 0.3])
strategy = CAFedStrategy(
    alpha=problem.alpha,
    kappa2=0.25,  # CA-Fed's bias weight; π̂ and λ̂ are estimated from the rounds seen
    schedule=Schedule(0.1),
    local_steps=5,
    driver=AvailabilityDriver.from_chain(chain, ROUNDS, seed=0),
)

server = ServerApp()


@server.main()
def main(grid, context):
    result = strategy.start(grid, ArrayRecord([np.zeros(2)]), num_rounds=ROUNDS)
    print("final model:", np.round(result.arrays.to_numpy_ndarrays()[0], 3))


if __name__ == "__main__":
    run_simulation(server, problem_client_app(problem), num_supernodes=N)
