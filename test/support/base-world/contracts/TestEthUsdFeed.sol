// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A Chainlink-style ETH/USD feed (AggregatorV3Interface) answering a price the test sets.
contract TestEthUsdFeed {
    int256 private answer;
    uint256 private updatedAt;
    uint80 private roundId;

    function set(int256 newAnswer, uint256 newUpdatedAt) external {
        answer = newAnswer;
        updatedAt = newUpdatedAt;
        roundId += 1;
    }

    function decimals() external pure returns (uint8) {
        return 8;
    }

    function description() external pure returns (string memory) {
        return "ETH / USD";
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (roundId, answer, updatedAt, updatedAt, roundId);
    }
}
