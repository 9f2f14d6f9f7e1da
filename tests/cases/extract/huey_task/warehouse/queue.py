"""The warehouse's Huey instance."""

from huey import RedisHuey

huey = RedisHuey("warehouse")
